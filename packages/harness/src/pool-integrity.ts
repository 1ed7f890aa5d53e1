import type { Pool } from "@hs/spec";
import { InvalidInputError } from "@hs/spec";
import { harnessHash } from "./harness-hash.js";

/**
 * Verifies what a pool's entries say about their harnesses: each id equals its config's id, each hash
 * equals the config's content hash (`harnessHash`), ids are unique, and (when given) the pool is for
 * `benchmark`. Throws an `InvalidInputError` naming the file and field of the first mismatch.
 */
export function verifyPoolIntegrity(pool: Pool, source: { file?: string; benchmark?: string } = {}): void {
  const location = source.file === undefined ? {} : { file: source.file };
  if (source.benchmark !== undefined && pool.benchmark !== source.benchmark)
    throw new InvalidInputError(
      `the pool was evolved for benchmark "${pool.benchmark}", expected "${source.benchmark}"`,
      { ...location, field: "benchmark" },
    );
  const entries = [
    { field: "base", ...pool.base },
    ...pool.siblings.map((sibling, index) => ({ field: `siblings.${index}`, ...sibling })),
  ];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (entry.id !== entry.config.id)
      throw new InvalidInputError(`id "${entry.id}" differs from its config's id "${entry.config.id}"`, {
        ...location,
        field: `${entry.field}.id`,
      });
    const actual = harnessHash(entry.config);
    if (entry.hash !== actual)
      throw new InvalidInputError(
        `stale hash ${entry.hash}: the config of "${entry.id}" hashes to ${actual} (it was edited after the pool was written)`,
        { ...location, field: `${entry.field}.hash` },
      );
    if (seen.has(entry.id))
      throw new InvalidInputError(`duplicate harness id "${entry.id}"`, {
        ...location,
        field: `${entry.field}.id`,
      });
    seen.add(entry.id);
  }
}
