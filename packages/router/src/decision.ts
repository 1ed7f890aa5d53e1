import { textSeed } from "@hs/harness";
import type { RankedHarness, RouterDecision } from "@hs/spec";

/** A seeded tie-break key for a harness id (same seed, same order). */
export function tieBreak(seed: number, harnessId: string): number {
  return textSeed(`${seed}:${harnessId}`);
}

/** Sorts by score (descending), ties in a seeded order. */
export function sortRanking(ranking: readonly RankedHarness[], seed: number): RankedHarness[] {
  return [...ranking].sort(
    (a, b) => b.score - a.score || tieBreak(seed, a.harnessId) - tieBreak(seed, b.harnessId),
  );
}

/** A decision from scored harnesses: the sorted ranking and its first `k` ids. */
export function decide(
  ranking: readonly RankedHarness[],
  k: number,
  seed: number,
  extra: Omit<RouterDecision, "ranking" | "selected"> = {},
): RouterDecision {
  const sorted = sortRanking(ranking, seed);
  return {
    ranking: sorted,
    selected: sorted.slice(0, Math.max(0, k)).map((entry) => entry.harnessId),
    ...extra,
  };
}

/** Min-max normalisation of scores to [0, 1] (all equal: 0.5). */
export function normalizeScores(ranking: readonly RankedHarness[]): Map<string, number> {
  const scores = ranking.map((entry) => entry.score);
  const min = Math.min(...scores);
  const max = Math.max(...scores);
  return new Map(
    ranking.map((entry) => [entry.harnessId, max === min ? 0.5 : (entry.score - min) / (max - min)]),
  );
}
