import { type EpisodeJob, type EpisodeRunner, episodeSeed, runJobs } from "@hs/failure-analysis";
import type { HarnessConfig, Task, Trajectory } from "@hs/spec";

/** Which set of fresh seeds an episode uses: candidate selection, the winner's confirmation, the properties. */
export type FreshSeedRound = "selection" | "confirmation" | "properties";

const roundOffsets: Readonly<Record<FreshSeedRound, number>> = {
  selection: 1_000_000,
  confirmation: 2_000_000,
  properties: 3_000_000,
};

/**
 * The seed a base failure is re-run with in one round: fresh (never a base seed), the same for every
 * harness run on that failure in that round, so a sibling and the base harness re-rolled are paired.
 */
export function freshSeed(failure: Trajectory, index: number, round: FreshSeedRound, seed: number): number {
  return episodeSeed(failure.taskId, roundOffsets[round] + index, seed);
}

/** A harness against the base harness re-rolled, on the same base failures with the same fresh seeds. */
export interface PairedRescues {
  /** Base failures both were run on. */
  failuresTried: number;
  /** Solved by the harness. */
  rescued: number;
  /** Solved by the base harness re-rolled. */
  controlRescued: number;
  /** Solved by the harness only. */
  siblingOnly: number;
  /** Solved by the re-roll only. */
  controlOnly: number;
  /** One-sided exact sign test on the discordant pairs: P(siblingOnly or more | no difference). */
  pValue: number;
}

/** P(X >= successes) for X ~ Binomial(trials, 1/2). */
export function signTestPValue(successes: number, trials: number): number {
  if (trials === 0 || successes <= 0) return 1;
  let term = 0.5 ** trials;
  let tail = 0;
  for (let k = 0; k <= trials; k++) {
    if (k >= successes) tail += term;
    term = (term * (trials - k)) / (k + 1);
  }
  return Math.min(1, tail);
}

/** Pairs a harness's outcomes with the re-roll's on the same failures. */
export function pairRescues(harness: readonly boolean[], control: readonly boolean[]): PairedRescues {
  let siblingOnly = 0;
  let controlOnly = 0;
  harness.forEach((solved, index) => {
    if (solved && control[index] !== true) siblingOnly++;
    if (!solved && control[index] === true) controlOnly++;
  });
  return {
    failuresTried: harness.length,
    rescued: harness.filter(Boolean).length,
    controlRescued: control.filter(Boolean).length,
    siblingOnly,
    controlOnly,
    pValue: signTestPValue(siblingOnly, siblingOnly + controlOnly),
  };
}

/**
 * Runs harnesses on base failures with one round's fresh seeds, paired with the base harness re-rolled
 * on the same seeds. The re-roll of each failure is run once per round and reused by every candidate
 * validated on it; a harness's episodes, the missing re-rolls and any extra jobs share one batch.
 */
export function createRerollControl(options: {
  runner: EpisodeRunner;
  base: HarnessConfig;
  failures: readonly Trajectory[];
  taskOf: (trajectory: Trajectory) => Task;
  seed: number;
}) {
  const indexOf = new Map(options.failures.map((failure, index) => [failure.id, index]));
  const cache = new Map<string, boolean>();
  const key = (failure: Trajectory, round: FreshSeedRound) => `${round}:${failure.id}`;
  const jobsFor = (config: HarnessConfig, failures: readonly Trajectory[], round: FreshSeedRound) =>
    failures.map((failure) => ({
      task: options.taskOf(failure),
      harness: config,
      seed: freshSeed(failure, indexOf.get(failure.id) ?? 0, round, options.seed),
    }));
  return {
    /** The harness paired with the re-roll on these failures, and the results of `extra` jobs run beside. */
    async paired(
      config: HarnessConfig,
      failures: readonly Trajectory[],
      round: FreshSeedRound,
      extra: readonly EpisodeJob[] = [],
    ): Promise<{ paired: PairedRescues; extra: Trajectory[] }> {
      const missing = failures.filter((failure) => !cache.has(key(failure, round)));
      const results = await runJobs(options.runner, [
        ...jobsFor(config, failures, round),
        ...jobsFor(options.base, missing, round),
        ...extra,
      ]);
      const outcomes = results.slice(0, failures.length).map((trajectory) => trajectory.success);
      for (const [index, failure] of missing.entries())
        cache.set(key(failure, round), results[failures.length + index]?.success === true);
      const control = failures.map((failure) => cache.get(key(failure, round)) === true);
      return {
        paired: pairRescues(outcomes, control),
        extra: results.slice(failures.length + missing.length),
      };
    },
  };
}
