import { z } from "zod";

/**
 * When an all-fail group is rescued: `always`, or `yield`, only while a rescue is expected to buy a
 * group with signal at least as cheaply as a fresh prompt does (see `rescuePays`).
 */
export const rescueGates = ["always", "yield"] as const;
/** When an all-fail group is rescued. */
export type RescueGate = (typeof rescueGates)[number];

/** What a run's rollouts have bought so far: the figures the `yield` gate compares. */
export const rescueYieldsSchema = z.object({
  /** Rollouts of base groups (fresh prompts under the base harness). */
  baseRollouts: z.number().int().nonnegative(),
  /** Base groups whose rewards differed (a signal bought by a fresh prompt). */
  baseSignalGroups: z.number().int().nonnegative(),
  /** Rollouts rescues spent. */
  rescueRollouts: z.number().int().nonnegative(),
  /** Rescues whose replacement group has rewards that differ (a signal bought by a rescue). */
  rescueSignalGroups: z.number().int().nonnegative(),
});
/** What a run's rollouts have bought so far. */
export type RescueYields = z.infer<typeof rescueYieldsSchema>;

/** A run's yields before its first rollout. */
export function noYields(): RescueYields {
  return { baseRollouts: 0, baseSignalGroups: 0, rescueRollouts: 0, rescueSignalGroups: 0 };
}

/**
 * Whether the next rescue is expected to pay under the equal-budget rule: its rollouts are taken from
 * fresh prompts later in the run, so it pays when its signal groups a rollout are at least the base
 * groups'. The rescue rate is read optimistically, as if one more rescue of `rescueBudget` rollouts had
 * succeeded, so rescue is tried before the run has measured it and stops once its record is worse than
 * a fresh prompt's. Before any base rollout it pays.
 */
export function rescuePays(yields: RescueYields, rescueBudget: number): boolean {
  if (yields.baseRollouts === 0) return true;
  const rescueRate = (yields.rescueSignalGroups + 1) / (yields.rescueRollouts + rescueBudget);
  const freshRate = yields.baseSignalGroups / yields.baseRollouts;
  return rescueRate >= freshRate;
}
