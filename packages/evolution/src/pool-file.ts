import { writeFile } from "node:fs/promises";
import { describeZodIssue, readJsonFile, verifyPoolIntegrity } from "@hs/harness";
import { InvalidInputError, type Pool, poolSchema } from "@hs/spec";

/** Validates a pool document; throws `InvalidInputError` naming the file and field. */
export function parsePool(value: unknown, source: { file?: string; benchmark?: string } = {}): Pool {
  const result = poolSchema.safeParse(value);
  if (!result.success) {
    const { field, message } = describeZodIssue(result.error);
    throw new InvalidInputError(`invalid pool: ${message}`, {
      ...(source.file === undefined ? {} : { file: source.file }),
      field,
    });
  }
  verifyPoolIntegrity(result.data, source);
  return result.data;
}

/**
 * Reads and validates a pool JSON file (a BOM is accepted): unknown keys, stale hashes, ids that differ
 * from their config's, duplicate ids and (with `benchmark`) a pool of another benchmark are errors
 * naming the file and field.
 */
export async function readPool(file: string, options: { benchmark?: string } = {}): Promise<Pool> {
  const value = await readJsonFile(file, "a sibling pool (hs evolve)");
  return parsePool(value, { file, ...options });
}

/** Writes a pool as pretty JSON (validated first). A pool is frozen: nothing rewrites it in place. */
export async function writePool(file: string, pool: Pool): Promise<void> {
  await writeFile(file, `${JSON.stringify(parsePool(pool), null, 2)}\n`);
}
