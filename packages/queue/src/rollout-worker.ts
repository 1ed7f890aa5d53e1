import { hostname } from "node:os";
import {
  type ActionGrammarV1,
  type BenchmarkV1,
  describeZodIssue,
  harnessHash,
  InvalidInputError,
  type PolicyV1,
  runEpisode,
} from "@hs/harness";
import { DelayedError, type Job, UnrecoverableError, Worker } from "bullmq";
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
  /** Told of each job done, refused or failed. */
  onEvent?: (event: { kind: "done" | "refused" | "failed"; jobId: string; message?: string }) => void;
}

/** A running worker. */
export interface RolloutWorker {
  /** The BullMQ worker. */
  readonly worker: Worker;
  /** Jobs completed by this worker. */
  readonly done: number;
  /** Stops taking jobs, waits for the running ones, closes the connections. */
  close(): Promise<void>;
}

/** Policies kept loaded at once (one per version; the trainer moves to a new version every step). */
const loadedPolicies = 4;
/** How long a job of another version is held back before any worker may take it again. */
const refusedJobDelayMs = 250;

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
  const benchmarks = new Map<string, Promise<BenchmarkV1>>();
  const policies = new Map<string, Promise<PolicyV1>>();
  const grammarOf = options.grammarOf ?? defaultGrammar;
  let done = 0;
  let running = 0;

  const benchmarkOf = (reference: BenchmarkReference) => {
    const key = JSON.stringify(reference);
    if (!benchmarks.has(key)) {
      const opening = openWithTasks(options.openBenchmark, reference);
      opening.catch(() => benchmarks.delete(key));
      benchmarks.set(key, opening);
    }
    return benchmarks.get(key) as Promise<BenchmarkV1>;
  };
  const policyOf = (reference: PolicyReference, benchmark: BenchmarkV1) => {
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
  };

  const processJob = async (job: Job, token?: string): Promise<RolloutResult> => {
    const parsed = rolloutJobSchema.safeParse(job.data);
    if (!parsed.success) {
      const { field, message } = describeZodIssue(parsed.error);
      throw new UnrecoverableError(`not a rollout job (${field}: ${message})`);
    }
    const data = parsed.data;
    if (data.queueVersion !== version) {
      options.onEvent?.({
        kind: "refused",
        jobId: String(job.id),
        message: `job of ${data.queueVersion}, worker of ${version}`,
      });
      await job.moveToDelayed(Date.now() + refusedJobDelayMs, token);
      throw new DelayedError();
    }
    if (harnessHash(data.harness) !== data.key.harnessHash)
      throw new UnrecoverableError("the job's harness does not have the hash its key names");
    running++;
    try {
      const trajectory = await runJob(data, await benchmarkOf(data.benchmark), policyOf);
      done++;
      options.onEvent?.({ kind: "done", jobId: String(job.id) });
      return { formatVersion: 1, jobId: String(job.id), queueVersion: version, worker: name, trajectory };
    } catch (error) {
      options.onEvent?.({ kind: "failed", jobId: String(job.id), message: String(error) });
      throw error;
    } finally {
      running--;
    }
  };

  const worker = new Worker(options.queueName ?? rolloutQueueName(version), processJob, {
    connection: redis,
    concurrency: options.concurrency ?? 1,
    lockDuration: options.lockDurationMs ?? 30_000,
    stalledInterval: options.stalledIntervalMs ?? 30_000,
    // a job may be found stalled several times (workers killed one after another) before it fails
    maxStalledCount: 10,
  });
  worker.on("error", () => {});
  const heartbeatMs = options.heartbeatMs ?? 5000;
  const beat = () =>
    redis
      .set(
        `hs:workers:${name}`,
        JSON.stringify({
          name,
          version,
          concurrency: options.concurrency ?? 1,
          running,
          done,
          at: new Date().toISOString(),
        }),
        "PX",
        heartbeatMs * 3,
      )
      .catch(() => {});
  void beat();
  const heartbeat = setInterval(beat, heartbeatMs);
  heartbeat.unref();
  return {
    worker,
    get done() {
      return done;
    },
    async close() {
      clearInterval(heartbeat);
      await worker.close();
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

async function runJob(
  data: RolloutJob,
  benchmark: BenchmarkV1,
  policyOf: (reference: PolicyReference, benchmark: BenchmarkV1) => Promise<PolicyV1>,
) {
  const policy = await policyOf(data.policy, benchmark);
  if (policy.version !== data.key.policyVersion)
    throw new UnrecoverableError(
      `loaded policy version ${policy.version}, the job names ${data.key.policyVersion}`,
    );
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
