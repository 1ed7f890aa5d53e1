import { createHash } from "node:crypto";
import type { Grade, Trajectory } from "@hs/spec";
import type { Episode } from "./episode.js";
import { allEvents } from "./episode-state.js";

/** The trajectory id: a hash of task, harness, policy version and seed. */
function trajectoryId(episode: Episode, harnessHash: string): string {
  const { task, policy, seed } = episode.options;
  return createHash("sha256")
    .update(`${task.id}\n${harnessHash}\n${policy.id}@${policy.version}\n${seed}`)
    .digest("hex")
    .slice(0, 20);
}

/** The finished episode as a trajectory; an episode that ended with an error gets no reward. */
export function episodeTrajectory(
  episode: Episode,
  run: { harnessHash: string; grade: Grade; startedAt: number; wallMs: () => number },
): Trajectory {
  const { task, harness, policy, seed } = episode.options;
  const { state, preludeCalls } = episode;
  const failed = state.endReason === "error";
  return {
    schemaVersion: 1,
    id: trajectoryId(episode, run.harnessHash),
    taskId: task.id,
    benchmark: task.benchmark,
    split: task.split,
    category: task.category,
    harnessId: harness.id,
    harnessHash: run.harnessHash,
    policyId: policy.id,
    policyVersion: policy.version,
    seed,
    steps: state.steps,
    endReason: state.endReason ?? "budget",
    ...(state.error === null ? {} : { error: state.error }),
    reward: failed ? 0 : run.grade.reward,
    success: failed ? false : run.grade.success,
    gradeDetails: run.grade.details,
    failureModes: [],
    events: [...episode.preludeEvents, ...allEvents(state)],
    ...(preludeCalls.length === 0 ? {} : { preludeCalls }),
    timings: {
      startedAt: new Date(run.startedAt).toISOString(),
      wallMs: run.wallMs(),
      policyMs: state.policyMs,
      environmentMs: state.environmentMs,
    },
  };
}
