import { hostname } from "node:os";
import { runEpisode } from "@hs/harness";
import type { ActionGrammarV1, BenchmarkV1, Trajectory } from "@hs/spec";
import { type Job, Worker } from "bullmq";
import { loadReferencedPolicy } from "../policy-store.js";
import { queuePackageVersion } from "../queue-version.js";
import { connectRedis } from "../redis-connection.js";
import { type RolloutJob, rolloutJobSchema } from "../rollout-job.js";

/** What a faulty worker does wrong. */
export const faultyBehaviours = ["garbage", "other-job", "other-version-unchecked"] as const;
/** What a faulty worker does wrong. */
export type FaultyBehaviour = (typeof faultyBehaviours)[number];

/** Options of `startFaultyWorker`. */
export interface FaultyWorkerOptions {
  /** `redis://HOST:PORT`. */
  redisUrl: string;
  /** The queue it takes jobs from. */
  queueName: string;
  /** `garbage`: returns what is no result; `other-job`: returns the trajectory of an earlier job;
   * `other-version-unchecked`: runs the job but says it is another version (as an old worker that checks nothing would). */
  behaviour: FaultyBehaviour;
  /** Opens the job's benchmark. */
  openBenchmark: () => Promise<BenchmarkV1>;
  /** The embedded policy's grammar. */
  grammar: () => ActionGrammarV1;
  /** Jobs it spoils before it stops taking any (default unlimited). */
  maxJobs?: number;
}

/**
 * Test equipment for fault drills: a BullMQ worker on the rollout queue that answers jobs wrongly, the
 * way a broken or foreign worker would. The trainer's executor must refuse every answer it gives.
 */
export function startFaultyWorker(options: FaultyWorkerOptions): {
  spoiled: () => number;
  close: () => Promise<void>;
} {
  const redis = connectRedis(options.redisUrl);
  let spoiled = 0;
  let earlier: Trajectory | null = null;
  const benchmark = options.openBenchmark();
  const episode = async (data: RolloutJob) =>
    runEpisode({
      task: data.task,
      benchmark: await benchmark,
      harness: data.harness,
      policy: await loadReferencedPolicy(redis, data.policy, options.grammar),
      seed: data.key.seed,
      mode: data.key.mode,
    });
  const answer = async (job: Job) => {
    spoiled++;
    if (options.maxJobs !== undefined && spoiled >= options.maxJobs) void worker.pause(true);
    const base = { formatVersion: 1, jobId: String(job.id), worker: `faulty:${hostname()}:${process.pid}` };
    if (options.behaviour === "garbage")
      return { ...base, queueVersion: queuePackageVersion, trajectory: { steps: "none" } };
    const data = rolloutJobSchema.parse(job.data);
    if (options.behaviour === "other-version-unchecked")
      return { ...base, queueVersion: `${queuePackageVersion}-other`, trajectory: await episode(data) };
    const previous = earlier;
    earlier = await episode(data);
    return {
      ...base,
      queueVersion: queuePackageVersion,
      trajectory: previous ?? { ...earlier, seed: earlier.seed + 1 },
    };
  };
  const worker: Worker = new Worker(options.queueName, answer, { connection: redis, concurrency: 1 });
  worker.on("error", () => {});
  return {
    spoiled: () => spoiled,
    close: async () => {
      await worker.close();
      redis.disconnect();
    },
  };
}
