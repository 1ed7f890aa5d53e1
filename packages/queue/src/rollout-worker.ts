import { hostname } from "node:os";
import { describeZodIssue, harnessHash, runEpisode } from "@hs/harness";
import { type ActionGrammarV1, type BenchmarkV1, InvalidInputError, type PolicyV1 } from "@hs/spec";
import { DelayedError, type Job, UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { loadReferencedPolicy } from "./policy-store.js";
import { queuePackageVersion, rolloutQueueName } from "./queue-version.js";
import { connectRedis } from "./redis-connection.js";
import {
  type BenchmarkReference,
  type PolicyReference,
  type RolloutJob,
  type RolloutResult,
  rolloutJobSchema,
} from "./rollout-job.js";
import { TinkerSamplers } from "./tinker-samplers.js";

/** Options of `startRolloutWorker`. */
export interface RolloutWorkerOptions {
  /** `redis://HOST:PORT`. */
  redisUrl: string;
  /** Opens the benchmark a job names (the CLI loads plugins by name or path). */
  openBenchmark: (reference: BenchmarkReference) => Promise<BenchmarkV1>;
  /** The embedded policy's grammar for a benchmark (default `benchmark.actionGrammar`). */
  grammarOf?: (benchmark: BenchmarkV1) => ActionGrammarV1;
  /** Episodes at once (default 1). */
  concurrency?: number;
  /** BullMQ lock of a job, renewed every half of it while the episode runs (default 30000 ms). */
  lockDurationMs?: number;
  /** How often stalled jobs (a dead worker's) are looked for (default 30000 ms). */
  stalledIntervalMs?: number;
  /** Version this worker runs (default this package's); jobs of another version are given back. */
  queueVersion?: string;
  /** Queue name (default the one of `queueVersion`). */
  queueName?: string;
  /** Name in results and heartbeats (default HOST:PID). */
  name?: string;
  /** Heartbeat period in milliseconds (default 5000): `hs:workers:NAME` in Redis, expiring after three. */
  heartbeatMs?: number;
  /** `X-API-Key` of the Tinker servers jobs name (default `TINKER_API_KEY` of this process's environment). */
  tinkerApiKey?: string;
  /** Told of each job done, refused or failed. */
  onEvent?: (event: { kind: "done" | "refused" | "failed"; jobId: string; message?: string }) => void;
}

/** A running worker. */
export interface RolloutWorker {
  /** The first BullMQ worker (its events: `stalled`, `failed`...). */
  readonly worker: Worker;
  /** Every BullMQ worker of this process: one fetch loop each, the concurrency shared among them. */
  readonly workers: readonly Worker[];
  /** Jobs completed by this worker. */
  readonly done: number;
  /** Resolves once every fetch loop is connected. */
  waitUntilReady(): Promise<void>;
  /** Stops taking jobs, waits for the running ones, closes the connections. */
  close(): Promise<void>;
}

/** Policies kept loaded at once (one per version; the trainer moves to a new version every step). */
const loadedPolicies = 4;
/** How long a job of another version is held back before any worker may take it again. */
const refusedJobDelayMs = 250;
/**
 * Episodes per fetch loop. A BullMQ worker takes jobs one Redis round trip after another (taskforcesh/bullmq
 * `src/classes/worker.ts`, `mainLoop`: "we fetch jobs in sequence"), so at a concurrency of 256 a burst of
 * jobs waits seconds for its turn; a worker process runs one fetch loop per this many episodes.
 */
const episodesPerFetchLoop = 32;

/** The benchmarks and policy versions a worker has opened, each opened once. */
interface Loaders {
  benchmarkOf(reference: BenchmarkReference): Promise<BenchmarkV1>;
  policyOf(reference: PolicyReference, benchmark: BenchmarkV1): Promise<PolicyV1>;
  /** Ends the Tinker sessions. */
  close(): Promise<void>;
}

function createLoaders(options: RolloutWorkerOptions, redis: Redis): Loaders {
  const benchmarks = new Map<string, Promise<BenchmarkV1>>();
  const policies = new Map<string, Promise<PolicyV1>>();
  const grammarOf = options.grammarOf ?? defaultGrammar;
  const apiKey = options.tinkerApiKey ?? process.env.TINKER_API_KEY;
  const tinker = new TinkerSamplers(apiKey === undefined ? {} : { apiKey });
  return {
    close: () => tinker.close(),
    benchmarkOf(reference) {
      const key = JSON.stringify(reference);
      if (!benchmarks.has(key)) {
        const opening = openWithTasks(options.openBenchmark, reference);
        opening.catch(() => benchmarks.delete(key));
        benchmarks.set(key, opening);
      }
      return benchmarks.get(key) as Promise<BenchmarkV1>;
    },
    policyOf(reference, benchmark) {
      if (reference.kind === "tinker") return tinker.policyOf(reference);
      const key = JSON.stringify(reference);
      const known = policies.get(key);
      if (known !== undefined) return known;
      const loading = loadReferencedPolicy(redis, reference, () => grammarOf(benchmark));
      loading.catch(() => policies.delete(key));
      policies.set(key, loading);
      for (const [old, policy] of policies) {
        if (policies.size <= loadedPolicies) break;
        policies.delete(old);
        void policy.then((loaded) => (loaded as { dispose?: () => void }).dispose?.()).catch(() => {});
      }
      return loading;
    },
  };
}

/** Counts of the worker, read by its heartbeat. */
interface Tally {
  done: number;
  running: number;
}

/** The job's data, checked against the schema: a job that is not a rollout job fails for good. */
function parseJob(job: Job): RolloutJob {
  const parsed = rolloutJobSchema.safeParse(job.data);
  if (!parsed.success) {
    const { field, message } = describeZodIssue(parsed.error);
    throw new UnrecoverableError(`not a rollout job (${field}: ${message})`);
  }
  return parsed.data;
}

function createJobProcessor(
  options: RolloutWorkerOptions,
  identity: { version: string; name: string },
  loaders: Loaders,
  tally: Tally,
) {
  const { version, name } = identity;
  return async (job: Job, token?: string): Promise<RolloutResult> => {
    const data = parseJob(job);
    const jobId = String(job.id);
    if (data.queueVersion !== version) {
      options.onEvent?.({
        kind: "refused",
        jobId,
        message: `job of ${data.queueVersion}, worker of ${version}`,
      });
      await job.moveToDelayed(Date.now() + refusedJobDelayMs, token);
      throw new DelayedError();
    }
    if (harnessHash(data.harness) !== data.key.harnessHash)
      throw new UnrecoverableError("the job's harness does not have the hash its key names");
    tally.running++;
    try {
      const trajectory = await runJob(data, await loaders.benchmarkOf(data.benchmark), loaders.policyOf);
      tally.done++;
      options.onEvent?.({ kind: "done", jobId });
      return { formatVersion: 1, jobId, queueVersion: version, worker: name, trajectory };
    } catch (error) {
      options.onEvent?.({ kind: "failed", jobId, message: String(error) });
      throw error;
    } finally {
      tally.running--;
    }
  };
}

/** The concurrency of each fetch loop: `total` shared among ceil(total / episodesPerFetchLoop) loops. */
export function fetchLoopShares(total: number): number[] {
  const loops = Math.max(1, Math.ceil(total / episodesPerFetchLoop));
  return Array.from(
    { length: loops },
    (_, index) => Math.floor(total / loops) + (index < total % loops ? 1 : 0),
  );
}

/** Writes `hs:workers:NAME` every period, expiring after three. */
function startHeartbeat(
  redis: Redis,
  name: string,
  describe: () => Record<string, unknown>,
  periodMs: number,
) {
  const beat = () =>
    redis
      .set(
        `hs:workers:${name}`,
        JSON.stringify({ name, ...describe(), at: new Date().toISOString() }),
        "PX",
        periodMs * 3,
      )
      .catch(() => {});
  void beat();
  const heartbeat = setInterval(beat, periodMs);
  heartbeat.unref();
  return () => clearInterval(heartbeat);
}

/**
 * Starts a rollout worker: takes jobs from the queue, opens the benchmark and loads the policy version
 * each names, runs the episode under the job's time limit and returns the trajectory. BullMQ renews the
 * job's lock while it runs (the heartbeat); a worker killed mid-episode stops renewing, and the job is
 * found stalled and run again by another worker (taskforcesh/bullmq `docs/gitbook/guide/jobs/stalled.md`).
 */
export function startRolloutWorker(options: RolloutWorkerOptions): RolloutWorker {
  const redis = connectRedis(options.redisUrl);
  const version = options.queueVersion ?? queuePackageVersion;
  const name = options.name ?? `${hostname()}:${process.pid}`;
  const concurrency = options.concurrency ?? 1;
  const tally: Tally = { done: 0, running: 0 };
  const loaders = createLoaders(options, redis);
  const processJob = createJobProcessor(options, { version, name }, loaders, tally);
  const workers = fetchLoopShares(concurrency).map((share) => {
    const worker = new Worker(options.queueName ?? rolloutQueueName(version), processJob, {
      connection: redis,
      concurrency: share,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      // a job may be found stalled several times (workers killed one after another) before it fails
      maxStalledCount: 10,
    });
    worker.on("error", () => {});
    return worker;
  });
  const stopHeartbeat = startHeartbeat(
    redis,
    name,
    () => ({ version, concurrency, running: tally.running, done: tally.done }),
    options.heartbeatMs ?? 5000,
  );
  return {
    worker: workers[0] as Worker,
    workers,
    get done() {
      return tally.done;
    },
    async waitUntilReady() {
      await Promise.all(workers.map((worker) => worker.waitUntilReady()));
    },
    async close() {
      stopHeartbeat();
      await Promise.all(workers.map((worker) => worker.close()));
      await loaders.close();
      await redis.del(`hs:workers:${name}`).catch(() => 0);
      redis.disconnect();
    },
  };
}

/** Opens the benchmark and loads the run's tasks into it (its grader needs them before any episode). */
async function openWithTasks(
  open: (reference: BenchmarkReference) => Promise<BenchmarkV1>,
  reference: BenchmarkReference,
): Promise<BenchmarkV1> {
  const benchmark = await open(reference);
  const source = reference.tasks;
  await benchmark.loadTasks({
    ...(source.split === undefined ? {} : { split: source.split }),
    ...(source.path === undefined ? {} : { path: source.path }),
  });
  return benchmark;
}

function defaultGrammar(benchmark: BenchmarkV1): ActionGrammarV1 {
  if (benchmark.actionGrammar === undefined)
    throw new InvalidInputError(`benchmark ${benchmark.id} has no action grammar for the embedded policy`, {
      field: "benchmark",
    });
  return benchmark.actionGrammar;
}

/**
 * The policy of one job, remembering its first failure. The harness runtime records a policy's failure
 * as the episode's error; a Tinker sampler's failure fails the job instead (the trainer's own Tinker
 * policy fails its run on one), so that no trajectory of a broken sampler call is counted.
 */
function watchedPolicy(policy: PolicyV1): { policy: PolicyV1; failure: () => unknown } {
  let failure: unknown;
  const watched: PolicyV1 = {
    specificationVersion: policy.specificationVersion,
    id: policy.id,
    get version() {
      return policy.version;
    },
    async act(view, options) {
      try {
        return await policy.act(view, options);
      } catch (error) {
        failure ??= error;
        throw error;
      }
    },
  };
  return { policy: watched, failure: () => failure };
}

async function runJob(
  data: RolloutJob,
  benchmark: BenchmarkV1,
  policyOf: (reference: PolicyReference, benchmark: BenchmarkV1) => Promise<PolicyV1>,
) {
  const loaded = await policyOf(data.policy, benchmark);
  if (loaded.version !== data.key.policyVersion)
    throw new UnrecoverableError(
      `loaded policy version ${loaded.version}, the job names ${data.key.policyVersion}`,
    );
  if (data.policy.kind !== "tinker") return runTimedEpisode(data, benchmark, loaded);
  const { policy, failure } = watchedPolicy(loaded);
  const trajectory = await runTimedEpisode(data, benchmark, policy);
  const failed = failure();
  if (failed !== undefined)
    throw new Error(
      `the Tinker sampler failed: ${failed instanceof Error ? failed.message : String(failed)}`,
      {
        cause: failed,
      },
    );
  return trajectory;
}

/** Runs the job's episode under its time limit. */
async function runTimedEpisode(data: RolloutJob, benchmark: BenchmarkV1, policy: PolicyV1) {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, fail) => {
    timer = setTimeout(() => {
      controller.abort();
      fail(new Error(`the episode passed its time limit of ${data.timeLimitMs} ms`));
    }, data.timeLimitMs);
  });
  try {
    return await Promise.race([
      runEpisode({
        task: data.task,
        benchmark,
        harness: data.harness,
        policy,
        seed: data.key.seed,
        mode: data.key.mode,
        signal: controller.signal,
      }),
      limit,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
