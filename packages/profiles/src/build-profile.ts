import type { FailureConventions, HarnessProfile, ObservedTrajectory } from "@hs/spec";
import { behaviourStatistics } from "./behaviour-stats.js";

/** One re-run of a labelled base failure under a harness. */
export interface RescueTrial {
  /** Failure modes of the base episode. */
  modes: readonly string[];
  /** Whether the harness solved it. */
  success: boolean;
}

/** Inputs of one harness profile. */
export interface BuildProfileInput {
  /** Harness id. */
  harnessId: string;
  /** Policy version the episodes ran with. */
  policyVersion: string;
  /**
   * The harness's episodes on the profiling tasks, observed: no grading details; `category` is the
   * benchmark's observable category (episodes without one count only in the overall figures).
   */
  trajectories: readonly ObservedTrajectory[];
  /** Its re-runs of base failures (empty for the base harness itself). */
  rescueTrials: readonly RescueTrial[];
  /** Benchmark conventions for the behaviour statistics. */
  conventions?: FailureConventions;
}

/** A function that builds one harness profile (`buildProfile`, or a wrapper around it). */
export type ProfileBuilder = (input: BuildProfileInput) => HarnessProfile;

/**
 * Builds a harness profile: success overall and per observable category, the rescue-matrix row,
 * behaviour.
 */
export function buildProfile(input: BuildProfileInput): HarnessProfile {
  const byCategory = new Map<string, { solved: number; total: number }>();
  for (const trajectory of input.trajectories) {
    if (trajectory.category === undefined) continue;
    const entry = byCategory.get(trajectory.category) ?? { solved: 0, total: 0 };
    entry.total += 1;
    if (trajectory.success) entry.solved += 1;
    byCategory.set(trajectory.category, entry);
  }
  const rescueByMode: HarnessProfile["rescueByMode"] = {};
  for (const trial of input.rescueTrials) {
    for (const mode of new Set(trial.modes)) {
      const cell = rescueByMode[mode] ?? { attempts: 0, rescued: 0 };
      cell.attempts += 1;
      if (trial.success) cell.rescued += 1;
      rescueByMode[mode] = cell;
    }
  }
  const solved = input.trajectories.filter((trajectory) => trajectory.success).length;
  return {
    harnessId: input.harnessId,
    policyVersion: input.policyVersion,
    episodes: input.trajectories.length,
    successRate: input.trajectories.length === 0 ? 0 : solved / input.trajectories.length,
    perCategory: Object.fromEntries(
      [...byCategory].map(([category, entry]) => [category, entry.solved / entry.total]),
    ),
    rescueByMode,
    behaviour: behaviourStatistics(input.trajectories, input.conventions),
  };
}
