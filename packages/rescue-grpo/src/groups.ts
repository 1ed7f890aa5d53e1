import type { BenchmarkV1, HarnessConfig, PolicyV1, Task, TrainingSample, Trajectory } from "@hs/harness";
import { runEpisode } from "@hs/harness";
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
}

/** Runs one rollout per seed of the same task under the same harness. */
export async function collectGroup(options: CollectGroupOptions): Promise<RolloutGroup> {
  const trajectories: Trajectory[] = [];
  for (const seed of options.seeds) {
    trajectories.push(
      await runEpisode({
        task: options.task,
        benchmark: options.benchmark,
        harness: options.harness,
        policy: options.policy,
        seed,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      }),
    );
  }
  return { task: options.task, harnessId: options.harness.id, trajectories };
}

/**
 * Training samples of a group: every trajectory with its group-relative advantage, every step with
 * the view the policy actually saw (a sibling's view for a rescued group).
 */
export function groupSamples(group: RolloutGroup, method: AdvantageMethod): TrainingSample[] {
  const advantages = groupAdvantages(groupRewards(group), method);
  return group.trajectories.map((trajectory, index) => ({
    trajectoryId: trajectory.id,
    harnessId: trajectory.harnessId,
    steps: trajectory.steps.map((step) => ({ view: step.view, action: step.action })),
    advantage: advantages[index] ?? 0,
  }));
}
