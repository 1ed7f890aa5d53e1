// Rollout throughput in process and through the BullMQ queue (@hs/queue), measured in one run:
// 1. DBBench (SQLite, in process) with the untrained embedded policy: episodes/s in process, and with 1,
//    2 and 4 worker processes; the queue's own cost per job (an empty job's round trip) beside the
//    episode's environment and policy time.
// 2. LLM-bound: a chat-completions server of our own (real HTTP, test equipment) that answers after a
//    fixed latency L and serves at most C requests at once; one-call episodes (the lookup benchmark, the
//    model answers at once), rollouts/s at C = 1, 16, 64, 256 in process and through the queue, against
//    the ideal C / L.
// Starts its own redis-server on a free port (or uses --redis) and its own worker processes.
//
//   pnpm build && node bench/queue-throughput.mjs [--episodes 96] [--latency-ms 5000] [--waves 4]
//     [--concurrencies 1,16,64,256] [--skip-dbbench]
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { createDbBench } from "../packages/benchmarks-dbbench/dist/index.js";
import { createChatPolicy } from "../packages/chat-policy/dist/index.js";
import { episodeSeed, runJobs } from "../packages/failure-analysis/dist/index.js";
import { createDbBenchGrammar } from "../packages/grammar-dbbench/dist/index.js";
import {
  createLookupBenchmark,
  lookupTextHarness,
} from "../packages/harness/dist/test-environments/index.js";
import { createEmbeddedPolicy } from "../packages/policy-embedded/dist/index.js";
import { chatPolicyReference, connectRedis, createQueueExecutor } from "../packages/queue/dist/index.js";
import {
  comparable,
  startLatencyChatServer,
  startRedis,
  startWorker,
  stopProcess,
} from "./queue-bench-kit.mjs";

// bullmq as @hs/queue resolves it
const { Queue, QueueEvents, Worker } = await import(
  createRequire(new URL("../packages/queue/package.json", import.meta.url)).resolve("bullmq")
);
const { values } = parseArgs({
  options: {
    redis: { type: "string" },
    episodes: { type: "string", default: "96" },
    "latency-ms": { type: "string", default: "5000" },
    waves: { type: "string", default: "4" },
    "skip-dbbench": { type: "boolean", default: false },
    concurrencies: { type: "string", default: "1,16,64,256" },
  },
});
const redis = values.redis === undefined ? await startRedis() : { url: values.redis, stop: async () => {} };
const workerArgs = (queue, bench, concurrency) => [
  ...["--redis", redis.url, "--queue", queue, "--bench", bench, "--concurrency", String(concurrency)],
  ...["--lock-ms", "30000", "--stalled-ms", "30000"],
];
const seconds = (start) => (performance.now() - start) / 1000;
const round = (value, digits = 2) => Number(value.toFixed(digits));

async function throughQueue({
  queueName,
  run,
  benchmark,
  workers,
  bench,
  workerConcurrency,
  inFlight,
  describe,
  work,
}) {
  const children = await Promise.all(
    Array.from({ length: workers }, () => startWorker(workerArgs(queueName, bench, workerConcurrency))),
  );
  const executor = createQueueExecutor({
    redisUrl: redis.url,
    queueName,
    run,
    phase: "bench",
    benchmark,
    concurrency: inFlight,
    pollMs: 1000,
    ...(describe === undefined ? {} : { describePolicy: describe }),
  });
  const start = performance.now();
  const trajectories = await work(executor);
  const wall = seconds(start);
  await executor.close();
  for (const child of children) await stopProcess(child);
  return { wall, trajectories, faults: executor.faults };
}

/** Round trip of an empty job (add, a worker takes it, completes it, the producer hears of it). */
async function emptyJobRoundTrip(count) {
  const connection = connectRedis(redis.url);
  const name = `hs-bench-empty-${Date.now()}`;
  const queue = new Queue(name, { connection });
  const events = new QueueEvents(name, { connection: connection.duplicate() });
  await events.waitUntilReady();
  const worker = new Worker(name, async () => ({ ok: true }), { connection, concurrency: 1 });
  await worker.waitUntilReady();
  const start = performance.now();
  for (let index = 0; index < count; index++) {
    const job = await queue.add("empty", { index }, { jobId: `e${index}` });
    await job.waitUntilFinished(events);
  }
  const perJobMs = (performance.now() - start) / count;
  await worker.close();
  await events.close();
  await queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
  return perJobMs;
}

async function dbbenchPart() {
  const grammar = createDbBenchGrammar();
  const benchmark = createDbBench({ actionGrammar: grammar });
  const { tasks } = await benchmark.loadTasks({ split: "dev" });
  const harness = benchmark.presets[benchmark.defaultPreset];
  const count = Number(values.episodes);
  const jobs = Array.from({ length: count }, (_, index) => {
    const task = tasks[index % tasks.length];
    return { task, harness, seed: episodeSeed(task.id, Math.floor(index / tasks.length), 0) };
  });
  const policy = await createEmbeddedPolicy({ grammar, seed: 0 });
  await runJobs({ benchmark, policy }, jobs.slice(0, 4)); // warm-up (tfjs, SQLite)
  let start = performance.now();
  const local = await runJobs({ benchmark, policy }, jobs);
  const localWall = seconds(start);
  const environmentMs = local.reduce((sum, t) => sum + t.timings.environmentMs, 0) / count;
  const policyMs = local.reduce((sum, t) => sum + t.timings.policyMs, 0) / count;
  const rows = [{ where: "in process", workers: 0, episodesPerSecond: round(count / localWall), ratio: 1 }];
  let same = true;
  for (const workers of [1, 2, 4]) {
    const run = `dbbench-${workers}-${Date.now()}`;
    const result = await throughQueue({
      queueName: `hs-bench-${run}`,
      run,
      benchmark: { specifier: "dbbench", options: {}, tasks: { split: "dev" } },
      workers,
      bench: "dbbench",
      workerConcurrency: 1,
      inFlight: workers * 2,
      work: (executor) => runJobs({ benchmark, policy, executor }, jobs),
    });
    same &&= JSON.stringify(comparable(result.trajectories)) === JSON.stringify(comparable(local));
    rows.push({
      where: "queue",
      workers,
      episodesPerSecond: round(count / result.wall),
      ratio: round(localWall / result.wall),
    });
  }
  start = performance.now();
  const emptyMs = await emptyJobRoundTrip(200);
  return {
    benchmark: "dbbench dev (SQLite), untrained embedded policy, base harness",
    episodes: count,
    rows,
    sameTrajectoriesAsInProcess: same,
    perEpisodeMs: {
      environment: round(environmentMs),
      policy: round(policyMs),
      inProcessWall: round((localWall * 1000) / count),
    },
    queueOverheadPerJobMs: round(emptyMs),
  };
}

async function chatPart() {
  const latencyMs = Number(values["latency-ms"]);
  const benchmark = createLookupBenchmark();
  const { tasks } = await benchmark.loadTasks({});
  const rows = [];
  for (const capacity of values.concurrencies.split(",").map(Number)) {
    const server = await startLatencyChatServer({ latencyMs, capacity, content: "answer: Paris" });
    const count = capacity * Number(values.waves);
    const jobs = Array.from({ length: count }, (_, index) => ({
      task: tasks[index % tasks.length],
      harness: lookupTextHarness,
      seed: index,
    }));
    const settings = {
      baseURL: server.baseURL,
      model: "bench",
      maxConcurrency: capacity,
      maxRetries: 0,
      timeoutMs: 120_000,
    };
    const policy = createChatPolicy({ ...settings, apiKey: "none" });
    const ideal = capacity / (latencyMs / 1000);
    let start = performance.now();
    await runJobs({ benchmark, policy, concurrency: capacity }, jobs);
    const local = count / seconds(start);
    const run = `chat-${capacity}-${Date.now()}`;
    const reference = chatPolicyReference(settings);
    const queued = await throughQueue({
      queueName: `hs-bench-${run}`,
      run,
      benchmark: { specifier: "lookup", options: {}, tasks: {} },
      workers: 1,
      bench: "lookup",
      workerConcurrency: capacity,
      inFlight: capacity,
      describe: async () => reference,
      work: (executor) => runJobs({ benchmark, policy, executor }, jobs),
    });
    await server.close();
    rows.push({
      concurrency: capacity,
      rollouts: count,
      idealPerSecond: round(ideal),
      inProcessPerSecond: round(local),
      inProcessRatio: round(local / ideal, 3),
      queuePerSecond: round(count / queued.wall),
      queueRatio: round(count / queued.wall / ideal, 3),
      // the machine's 1, 5 and 15 minute load averages when the row ended (2 cores here)
      loadAverage: loadavg().map((value) => round(value)),
    });
    start = performance.now();
  }
  return { latencyMs, waves: Number(values.waves), rows };
}

try {
  const dbbench = values["skip-dbbench"] ? null : await dbbenchPart();
  if (dbbench !== null) console.log(JSON.stringify({ dbbench }, null, 1));
  const chat = await chatPart();
  console.log(JSON.stringify({ chat }, null, 1));
} finally {
  await redis.stop();
}
process.exit(0);
