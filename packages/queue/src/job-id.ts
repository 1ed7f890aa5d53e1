import { createHash } from "node:crypto";
import type { RolloutKey } from "./rollout-job.js";

/**
 * The BullMQ job id of a rollout, derived from where it belongs in its run: the run, the phase, the
 * policy version (the step), the task, the harness and the seed (the group's draw index and the rollout
 * index). The same rollout enqueued twice (a retry, a resumed trainer) gets the same id, and BullMQ adds
 * a job whose id exists only once, so it is run and recorded once (bullmq `docs/gitbook/guide/jobs/job-ids.md`
 * in taskforcesh/bullmq). Hex only: BullMQ refuses custom ids with a colon.
 */
export function rolloutJobId(key: RolloutKey): string {
  const text = JSON.stringify([
    key.run,
    key.phase,
    key.policyVersion,
    key.taskId,
    key.harnessHash,
    key.seed,
    key.mode,
  ]);
  return `r${createHash("sha256").update(text).digest("hex").slice(0, 40)}`;
}
