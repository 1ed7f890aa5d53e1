import { describeZodIssue } from "@hs/harness";
import { type RolloutJob, type RolloutResult, rolloutResultSchema } from "./rollout-job.js";

/**
 * Checks what a worker returned for a job before the trainer counts it: the result schema (with the
 * trajectory's), the job id, the queue version and the trajectory's identity (task, harness hash, policy
 * and version, seed). Returns the problem, or null when the result is this job's.
 */
export function resultProblem(
  jobId: string,
  job: RolloutJob,
  value: unknown,
): { problem: string; result?: undefined } | { problem: null; result: RolloutResult } {
  const parsed = rolloutResultSchema.safeParse(value);
  if (!parsed.success) {
    const { field, message } = describeZodIssue(parsed.error);
    return { problem: `not a rollout result (${field || "result"}: ${message})` };
  }
  const result = parsed.data;
  if (result.jobId !== jobId) return { problem: `answers job ${result.jobId}, not ${jobId}` };
  if (result.queueVersion !== job.queueVersion)
    return {
      problem: `comes from a worker of @hs/queue ${result.queueVersion}, this run is ${job.queueVersion}`,
    };
  const trajectory = result.trajectory;
  const expected: [string, unknown, unknown][] = [
    ["taskId", trajectory.taskId, job.key.taskId],
    ["harnessHash", trajectory.harnessHash, job.key.harnessHash],
    ["policyId", trajectory.policyId, job.policy.id],
    ["policyVersion", trajectory.policyVersion, job.key.policyVersion],
    ["seed", trajectory.seed, job.key.seed],
  ];
  for (const [field, actual, wanted] of expected) {
    if (actual !== wanted)
      return {
        problem: `its trajectory has ${field} ${JSON.stringify(actual)}, the job ${JSON.stringify(wanted)}`,
      };
  }
  return { problem: null, result };
}
