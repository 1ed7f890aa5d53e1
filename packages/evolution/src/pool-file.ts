import { readFile, writeFile } from "node:fs/promises";
import { describeZodIssue, InvalidInputError, type Pool, poolSchema } from "@hs/harness";

/** Validates a pool document; throws `InvalidInputError` naming the file and field. */
export function parsePool(value: unknown, source: { file?: string } = {}): Pool {
  const result = poolSchema.safeParse(value);
  if (!result.success) {
    const { field, message } = describeZodIssue(result.error);
    throw new InvalidInputError(`invalid pool: ${message}`, { ...source, field });
  }
  const ids = new Set<string>();
  for (const [index, sibling] of result.data.siblings.entries()) {
    if (ids.has(sibling.id) || sibling.id === result.data.base.id) {
      throw new InvalidInputError(`duplicate harness id "${sibling.id}"`, {
        ...source,
        field: `siblings.${index}.id`,
      });
    }
    ids.add(sibling.id);
  }
  return result.data;
}

/** Reads and validates a pool JSON file. */
export async function readPool(file: string): Promise<Pool> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new InvalidInputError(
      `cannot read pool: ${error instanceof Error ? error.message : String(error)}`,
      { file },
      { cause: error },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(
      `pool is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      { file },
      { cause: error },
    );
  }
  return parsePool(value, { file });
}

/** Writes a pool as pretty JSON (validated first). A pool is frozen: nothing rewrites it in place. */
export async function writePool(file: string, pool: Pool): Promise<void> {
  await writeFile(file, `${JSON.stringify(parsePool(pool), null, 2)}\n`);
}
