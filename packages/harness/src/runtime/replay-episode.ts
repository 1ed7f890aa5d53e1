import type { BenchmarkV1, HarnessConfig, PolicyAction, PolicyView, Task, Trajectory } from "@hs/spec";
import { runEpisode } from "./run-episode.js";

/**
 * The action to record for a replayed step: `action` (what the replayed trajectory did there) as the
 * acting policy would have written it under `view`, or null when it cannot (its decisions are not
 * offered there, or they write another action).
 */
export type ReplayAction = (view: PolicyView, action: PolicyAction) => PolicyAction | null;

/** Options of `replayEpisode`. */
export interface ReplayEpisodeOptions {
  /** The task of the trajectory replayed. */
  task: Task;
  /** The benchmark that creates its environment. */
  benchmark: BenchmarkV1;
  /** The harness to replay it under (e.g. the base harness, for a sibling's trajectory). */
  harness: HarnessConfig;
  /** The trajectory whose actions are given again, in order; its seed is the episode's. */
  trajectory: Trajectory;
  /** How each step's action is written under the new views. */
  actionUnder: ReplayAction;
  /** Cancels the episode. */
  signal?: AbortSignal;
}

/** A replayed episode, and whether every step of it was the replayed trajectory's action. */
export interface ReplayedEpisode {
  /** The episode under the new harness, graded in a fresh environment. */
  trajectory: Trajectory;
  /** Every step's action was accepted by `actionUnder` and the replayed trajectory had a step for it. */
  transferred: boolean;
}

/**
 * Runs `trajectory`'s actions again under another harness: a fresh environment of the same task and
 * seed, the harness's own views, prelude, follow-ups and checks, and at each step the trajectory's next
 * action as `actionUnder` writes it under that view. Where an action does not transfer (or the harness
 * asks for more steps than the trajectory has) the original action is given anyway, so the episode
 * still ends and is graded, and `transferred` is false.
 */
export async function replayEpisode(options: ReplayEpisodeOptions): Promise<ReplayedEpisode> {
  const { steps } = options.trajectory;
  let index = 0;
  let transferred = steps.length > 0;
  const policy = {
    specificationVersion: "v1" as const,
    id: "replay",
    version: "replay",
    async act(view: PolicyView): Promise<PolicyAction> {
      const step = steps[Math.min(index, steps.length - 1)];
      if (index >= steps.length) transferred = false;
      index++;
      if (step === undefined) return { content: "", logprob: null };
      const written = options.actionUnder(view, step.action);
      if (written === null) transferred = false;
      return written ?? step.action;
    },
  };
  const trajectory = await runEpisode({
    task: options.task,
    benchmark: options.benchmark,
    harness: options.harness,
    policy,
    seed: options.trajectory.seed,
    mode: "sample",
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const { policyId, policyVersion } = options.trajectory;
  return { trajectory: { ...trajectory, policyId, policyVersion }, transferred };
}
