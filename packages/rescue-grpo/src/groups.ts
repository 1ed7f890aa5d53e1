import type { EpisodeExecutor } from "@hs/harness";
import { runEpisode } from "@hs/harness";
import type {
  BenchmarkV1,
  HarnessConfig,
  PolicyV1,
  Task,
  TrainingSample,
  TrainingStep,
  Trajectory,
} from "@hs/spec";
import { type AdvantageMethod, groupAdvantages, hasZeroVariance } from "./advantages.js";

/** G rollouts of one prompt under one harness. */
export interface RolloutGroup {
  /** The prompt. */
  task: Task;
  /** Harness that produced the trajectories (the base harness, or a sibling after a rescue). */
  harnessId: string;
  /** The rollouts. */
  trajectories: Trajectory[];
}

/** Rewards of a group, in rollout order. */
export function groupRewards(group: RolloutGroup): number[] {
  return group.trajectories.map((trajectory) => trajectory.reward);
}

/** Whether the group gives a group-relative advantage any signal (rewards differ). */
export function groupHasSignal(group: RolloutGroup): boolean {
  return !hasZeroVariance(groupRewards(group));
}

/** Whether every rollout of the group failed (the case a rescue step targets). */
export function groupAllFailed(group: RolloutGroup): boolean {
  return group.trajectories.every((trajectory) => !trajectory.success);
}

/** Options of `collectGroup`. */
export interface CollectGroupOptions {
  /** The prompt. */
  task: Task;
  /** Its benchmark. */
  benchmark: BenchmarkV1;
  /** The harness the rollouts run under. */
  harness: HarnessConfig;
  /** The acting policy. */
  policy: PolicyV1;
  /** Seeds of the rollouts (their number is the group size). */
  seeds: readonly number[];
  /** Cancels the collection. */
  signal?: AbortSignal;
  /** Where the rollouts run (default: one after another in this process). */
  executor?: EpisodeExecutor;
}

/**
 * Runs one rollout per seed of the same task under the same harness. With an executor the rollouts
 * are in flight together (up to its concurrency); the trajectories keep the order of the seeds.
 */
export async function collectGroup(options: CollectGroupOptions): Promise<RolloutGroup> {
  const run = options.executor?.run ?? runEpisode;
  const limit = options.executor?.concurrency ?? 1;
  const trajectories = new Array<Trajectory>(options.seeds.length);
  let next = 0;
  const lane = async () => {
    while (next < options.seeds.length) {
      const index = next++;
      trajectories[index] = await run({
        task: options.task,
        benchmark: options.benchmark,
        harness: options.harness,
        policy: options.policy,
        seed: options.seeds[index] as number,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, options.seeds.length)) }, lane));
  return { task: options.task, harnessId: options.harness.id, trajectories };
}

/**
 * Training samples of a group: every trajectory with its group-relative advantage, every step with
 * the view the policy actually saw (a sibling's view for a rescued group).
 */
export function groupSamples(
  group: RolloutGroup,
  method: AdvantageMethod,
  credit?: (trajectory: Trajectory) => TrainingStep[],
): TrainingSample[] {
  const advantages = groupAdvantages(groupRewards(group), method);
  return group.trajectories.map((trajectory, index) => ({
    trajectoryId: trajectory.id,
    harnessId: trajectory.harnessId,
    steps: [
      ...trajectory.steps.map((step) => ({ view: step.view, action: step.action })),
      ...(credit?.(trajectory) ?? []),
    ],
    advantage: advantages[index] ?? 0,
  }));
}
