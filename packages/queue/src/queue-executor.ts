import { type EpisodeExecutor, harnessHash, type RunEpisodeOptions } from "@hs/harness";
import { CancelledError, HarnessSError, type PolicyV1, type Trajectory } from "@hs/spec";
import { Queue } from "bullmq";
import { rolloutJobId } from "./job-id.js";
import { type JobEnd, JobWaiter } from "./job-waiter.js";
import { describePolicy } from "./policy-store.js";
import { queuePackageVersion, rolloutQueueName } from "./queue-version.js";
import { connectRedis } from "./redis-connection.js";
import { resultProblem } from "./result-check.js";
import type { BenchmarkReference, PolicyReference, RolloutJob, RolloutKey } from "./rollout-job.js";

/** A problem the executor met and got over (or not), for logs and the fault counts. */
export interface QueueFault {
  /** `refused-result`, `failed-job` or `lost-job`. */
  kind: "refused-result" | "failed-job" | "lost-job";
  /** The job. */
  jobId: string;
  /** What happened. */
  message: string;
}

/** Options of `createQueueExecutor`. */
export interface QueueExecutorOptions {
  /** `redis://HOST:PORT`. */
  redisUrl: string;
  /** The run the rollouts belong to (stable across a resume: the job ids derive from it). */
  run: string;
  /** What collects the rollouts (`train`, `evolve`, `profile`...). */
  phase: string;
  /** The benchmark as the workers must open it. */
  benchmark: BenchmarkReference;
  /** Rollouts in flight at once (default 64). */
  concurrency?: number;
  /** Time limit of one episode on a worker (default 10 minutes). */
  timeLimitMs?: number;
  /** Attempts of one job before it fails (default 5): a time limit or a stalled worker costs one. */
  attempts?: number;
  /** Results refused or jobs lost before a rollout gives up (default 20). */
  maxResubmits?: number;
  /** Times a job that failed for good (every attempt) is enqueued again before the rollout fails (default 1). */
  failedResubmits?: number;
  /** Poll of the jobs waited on longer than this, in milliseconds (default 2000); events settle the others. */
  pollMs?: number;
  /** Describes the acting policy for the workers (default: the embedded policy publishes its weights). */
  describePolicy?: (policy: PolicyV1) => Promise<PolicyReference>;
  /** Version written in every job (default this package's). */
  queueVersion?: string;
  /** Queue name (default one per version). */
  queueName?: string;
  /** Told of every fault met. */
  onFault?: (fault: QueueFault) => void;
}

/** The queue's executor: `EpisodeExecutor` plus its counters and `close`. */
export interface QueueExecutor extends EpisodeExecutor {
  /** Faults met so far, by kind. */
  readonly faults: Record<QueueFault["kind"], number>;
  /** Rollouts returned. */
  readonly completed: number;
  /** Closes the queue connections (jobs in Redis stay). */
  close(): Promise<void>;
}

/** Why a rollout could not be had from the queue. */
export class QueueRolloutError extends HarnessSError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("QueueRolloutError", message, options);
  }
}

/** The job of one episode; `reference` gives the acting policy as the workers load it. */
async function rolloutJobOf(
  options: QueueExecutorOptions,
  episode: RunEpisodeOptions,
  reference: Promise<PolicyReference>,
): Promise<RolloutJob> {
  const key: RolloutKey = {
    run: options.run,
    phase: options.phase,
    policyVersion: episode.policy.version,
    taskId: episode.task.id,
    harnessHash: harnessHash(episode.harness),
    seed: episode.seed,
    mode: episode.mode ?? "sample",
  };
  return {
    formatVersion: 1,
    queueVersion: options.queueVersion ?? queuePackageVersion,
    key,
    task: episode.task,
    benchmark: options.benchmark,
    harness: episode.harness,
    policy: await reference,
    timeLimitMs: options.timeLimitMs ?? 600_000,
  };
}

/** Each policy version described once (again after `refresh`: its weights may be gone with Redis). */
function policyReferences(describe: (policy: PolicyV1) => Promise<PolicyReference>) {
  const references = new Map<string, Promise<PolicyReference>>();
  return (policy: PolicyV1, refresh: boolean) => {
    const name = `${policy.id}@${policy.version}`;
    if (refresh || !references.has(name)) references.set(name, describe(policy));
    return references.get(name) as Promise<PolicyReference>;
  };
}

function enqueueRollout(queue: Queue, options: QueueExecutorOptions, jobId: string, job: RolloutJob) {
  return queue.add("rollout", job, {
    jobId,
    attempts: options.attempts ?? 5,
    backoff: { type: "fixed", delay: 200 },
    removeOnComplete: { age: 24 * 3600 },
    removeOnFail: { age: 24 * 3600 },
  });
}

/** The job's end, or a `CancelledError` when `signal` aborts first (the job is no longer waited on). */
function waitForJob(waiter: JobWaiter, jobId: string, signal: AbortSignal | undefined): Promise<JobEnd> {
  if (signal === undefined) return waiter.wait(jobId);
  signal.throwIfAborted();
  return new Promise((settle, fail) => {
    const abort = () => {
      waiter.forget(jobId);
      fail(new CancelledError("episode cancelled", { cause: signal.reason }));
    };
    signal.addEventListener("abort", abort, { once: true });
    void waiter.wait(jobId).then((end) => {
      signal.removeEventListener("abort", abort);
      settle(end);
    });
  });
}

/**
 * An episode executor that runs each episode as a BullMQ job on `hs worker` processes: the job names
 * task, benchmark, harness, policy version and seed, its id derives from them (a rollout enqueued twice
 * is one job), and the trajectory that comes back is checked against the job before it is returned.
 * A result refused, a job failed for good, or a job lost with a Redis restart is enqueued again.
 */
export function createQueueExecutor(options: QueueExecutorOptions): QueueExecutor {
  const redis = connectRedis(options.redisUrl);
  const queueName = options.queueName ?? rolloutQueueName(options.queueVersion ?? queuePackageVersion);
  const queue = new Queue(queueName, { connection: redis });
  const waiter = new JobWaiter(queue, redis, options.pollMs ?? 2000);
  const reference = policyReferences(
    options.describePolicy ?? ((policy: PolicyV1) => describePolicy(redis, options.run, policy)),
  );
  const faults: QueueExecutor["faults"] = { "refused-result": 0, "failed-job": 0, "lost-job": 0 };
  let completed = 0;
  const fault = (kind: QueueFault["kind"], jobId: string, message: string) => {
    faults[kind]++;
    options.onFault?.({ kind, jobId, message });
  };
  const run = async (episode: RunEpisodeOptions): Promise<Trajectory> => {
    let job = await rolloutJobOf(options, episode, reference(episode.policy, false));
    const jobId = rolloutJobId(job.key);
    const limit = options.maxResubmits ?? 20;
    let failures = 0;
    for (let submission = 0; submission <= limit; submission++) {
      await enqueueRollout(queue, options, jobId, job);
      const end = await waitForJob(waiter, jobId, episode.signal);
      if (end.state === "completed") {
        const checked = resultProblem(jobId, job, end.value);
        if (checked.problem === null) {
          completed++;
          return checked.result.trajectory;
        }
        fault("refused-result", jobId, checked.problem);
      } else if (end.state === "failed") {
        fault("failed-job", jobId, end.reason);
        if (++failures > (options.failedResubmits ?? 1))
          throw new QueueRolloutError(`rollout job ${jobId} (task ${job.key.taskId}) failed: ${end.reason}`);
      } else {
        fault("lost-job", jobId, "the job is gone from Redis (restarted without its data?)");
        job = await rolloutJobOf(options, episode, reference(episode.policy, true));
        continue;
      }
      await queue.remove(jobId).catch(() => 0);
    }
    throw new QueueRolloutError(
      `rollout job ${jobId} (task ${job.key.taskId}): no acceptable result after ${limit + 1} submissions`,
    );
  };
  return {
    run,
    concurrency: options.concurrency ?? 64,
    get faults() {
      return { ...faults };
    },
    get completed() {
      return completed;
    },
    async close() {
      await waiter.close();
      await queue.close();
      redis.disconnect();
    },
  };
}
