import { readPool } from "@hs/evolution";
import { type BenchmarkV1, InvalidInputError, type Pool, type ProfileSet } from "@hs/spec";

/** Reads a pool and verifies it was evolved for `benchmark` (plus its hashes and ids, as readPool does). */
export function readPoolFor(benchmark: BenchmarkV1, file: string): Promise<Pool> {
  return readPool(file, { benchmark: benchmark.id });
}

/**
 * Checks that profiles describe the pool's harnesses: a profile of a harness id the pool lacks is
 * refused (`allowMismatch`: dropped, with a warning naming them). Without a pool they are kept.
 */
export function matchProfilesToPool(
  profiles: ProfileSet,
  pool: Pool | null,
  options: { file: string; allowMismatch: boolean },
  warn: (message: string) => void,
): ProfileSet {
  if (pool === null) return profiles;
  const members = new Set([pool.base.id, ...pool.siblings.map((sibling) => sibling.id)]);
  const foreign = Object.keys(profiles.profiles).filter((id) => !members.has(id));
  if (foreign.length === 0) return profiles;
  const list = foreign.map((id) => `"${id}"`).join(", ");
  if (!options.allowMismatch)
    throw new InvalidInputError(
      `profiles of ${list}, which the pool does not hold (its harnesses: ${[...members].join(", ")}); profile this pool with hs profile, or pass --allow-profile-mismatch to ignore them`,
      { file: options.file, field: `profiles.${foreign[0]}` },
    );
  warn(
    `warning: ${options.file}: ignoring profiles of ${list}, which the pool does not hold (--allow-profile-mismatch)`,
  );
  const kept = (entries: ProfileSet["profiles"]) =>
    Object.fromEntries(Object.entries(entries).filter(([id]) => members.has(id)));
  return {
    ...profiles,
    profiles: kept(profiles.profiles),
    history: profiles.history.map((entry) => ({ ...entry, profiles: kept(entry.profiles) })),
  };
}
