import { writeFile } from "node:fs/promises";
import { describeZodIssue, readJsonFile } from "@hs/harness";
import { InvalidInputError, type ProfileSet, profileSetSchema } from "@hs/spec";

/** Validates a profile set; throws `InvalidInputError` naming the file and field. */
export function parseProfileSet(value: unknown, source: { file?: string } = {}): ProfileSet {
  const result = profileSetSchema.safeParse(value);
  if (result.success) return result.data;
  const { field, message } = describeZodIssue(result.error);
  throw new InvalidInputError(`invalid profiles: ${message}`, { ...source, field });
}

/** Reads and validates a profiles JSON file (a BOM is accepted; errors name the file and field). */
export async function readProfileSet(file: string): Promise<ProfileSet> {
  const value = await readJsonFile(file, "a profile set (hs profile)");
  return parseProfileSet(value, { file });
}

/** Writes a profile set as pretty JSON (validated first). */
export async function writeProfileSet(file: string, profiles: ProfileSet): Promise<void> {
  await writeFile(file, `${JSON.stringify(parseProfileSet(profiles), null, 2)}\n`);
}
