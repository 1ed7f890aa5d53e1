// Where an LLM-bound rollout's time goes on the queue (@hs/queue): one worker process of concurrency C,
// a chat-completions server of our own (test equipment, real HTTP) that answers after L with at most C
// requests at once, C x waves one-call episodes of the lookup benchmark. For every job: the trainer's
// call to the job's add, the add to a worker taking it (pickup), the take to the episode's start, the
// episode (the model call), its end to the job's finish, the finish to the trainer holding the result;
// the server's mean busy slots against C; the ramp at the start (first request, C-th request); CPU
// milliseconds per rollout of the trainer (this process, which also holds the chat server) and of the
// worker process; the load average.
//
//   pnpm build && node bench/queue-latency-breakdown.mjs [--concurrency 256] [--latency-ms 5000] [--waves 4]
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { createChatPolicy } from "../packages/chat-policy/dist/index.js";
import { runJobs } from "../packages/failure-analysis/dist/index.js";
import {
  createLookupBenchmark,
  lookupTextHarness,
} from "../packages/harness/dist/test-environments/index.js";
import { chatPolicyReference, connectRedis, createQueueExecutor } from "../packages/queue/dist/index.js";
import { startLatencyChatServer, startRedis, startWorker, stopProcess } from "./queue-bench-kit.mjs";

const { values } = parseArgs({
  options: {
    redis: { type: "string" },
    concurrency: { type: "string", default: "256" },
    "latency-ms": { type: "string", default: "5000" },
    waves: { type: "string", default: "4" },
  },
});
const capacity = Number(values.concurrency);
const latencyMs = Number(values["latency-ms"]);
const count = capacity * Number(values.waves);
const now = () => performance.timeOrigin + performance.now();
/** CPU milliseconds a process has used (user and system, from /proc). */
const cpuMsOf = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const percentiles = (name, numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const at = (share) => Math.round(sorted[Math.floor(share * (sorted.length - 1))]);
  const mean = Math.round(numbers.reduce((sum, value) => sum + value, 0) / numbers.length);
  return { step: name, p50: at(0.5), p90: at(0.9), p99: at(0.99), mean };
};

/** Mean requests the server held at once over the run, from its timings. */
function meanBusy(timings) {
  const changes = timings.flatMap((timing) => [
    [timing.started, 1],
    [timing.answered, -1],
  ]);
  changes.sort((a, b) => a[0] - b[0]);
  let busy = 0;
  let area = 0;
  for (let index = 0; index < changes.length; index++) {
    if (index > 0) area += busy * (changes[index][0] - changes[index - 1][0]);
    busy += changes[index][1];
  }
  return area / (changes.at(-1)[0] - changes[0][0]);
}

const redis = values.redis === undefined ? await startRedis() : { url: values.redis, stop: async () => {} };
const server = await startLatencyChatServer({ latencyMs, capacity, content: "answer: Paris" });
try {
  const benchmark = createLookupBenchmark();
  const { tasks } = await benchmark.loadTasks({});
  const jobs = Array.from({ length: count }, (_, index) => ({
    task: tasks[index % tasks.length],
    harness: lookupTextHarness,
    seed: index,
  }));
  const settings = { baseURL: server.baseURL, model: "bench", maxConcurrency: capacity, maxRetries: 0 };
  const run = `breakdown-${Date.now()}`;
  const queueName = `hs-bench-${run}`;
  const worker = await startWorker([
    ...["--redis", redis.url, "--queue", queueName, "--bench", "lookup"],
    ...["--concurrency", String(capacity), "--lock-ms", "30000", "--stalled-ms", "30000"],
  ]);
  worker.stdout.resume();
  const reference = chatPolicyReference(settings);
  const executor = createQueueExecutor({
    redisUrl: redis.url,
    queueName,
    run,
    phase: "bench",
    benchmark: { specifier: "lookup", options: {}, tasks: {} },
    concurrency: capacity,
    describePolicy: async () => reference,
  });
  const calls = new Map();
  const timed = {
    concurrency: executor.concurrency,
    run: async (episode) => {
      const called = now();
      const trajectory = await executor.run(episode);
      calls.set(episode.seed, { called, returned: now(), trajectory });
      return trajectory;
    },
  };
  const policy = createChatPolicy({ ...settings, apiKey: "none" });
  const trainerCpu = process.cpuUsage();
  const workerCpu = cpuMsOf(worker.pid);
  const started = now();
  await runJobs({ benchmark, policy, executor: timed }, jobs);
  const wall = now() - started;
  const trainerCpuMs = (({ user, system }) => (user + system) / 1000)(process.cpuUsage(trainerCpu));
  const workerCpuMs = cpuMsOf(worker.pid) - workerCpu;
  await executor.close();
  await stopProcess(worker);

  const connection = connectRedis(redis.url);
  const rows = [...calls].map(([seed, call]) => ({ seed, ...call }));
  const keys = await connection.keys(`bull:${queueName}:r*`);
  const jobTimes = new Map();
  for (const key of keys) {
    const [timestamp, processedOn, finishedOn, data] = await connection.hmget(
      key,
      "timestamp",
      "processedOn",
      "finishedOn",
      "data",
    );
    jobTimes.set(JSON.parse(data).key.seed, {
      added: Number(timestamp),
      taken: Number(processedOn),
      finished: Number(finishedOn),
    });
  }
  connection.disconnect();
  const joined = rows.map((row) => ({ ...row, ...jobTimes.get(row.seed) }));
  const episodeStart = (row) => Date.parse(row.trajectory.timings.startedAt);
  const steps = [
    percentiles(
      "trainer call -> job added",
      joined.map((row) => row.added - row.called),
    ),
    percentiles(
      "added -> a worker takes it (pickup)",
      joined.map((row) => row.taken - row.added),
    ),
    percentiles(
      "taken -> episode starts",
      joined.map((row) => episodeStart(row) - row.taken),
    ),
    percentiles(
      "episode (one model call)",
      joined.map((row) => row.trajectory.timings.wallMs),
    ),
    percentiles(
      "episode ends -> job finished",
      joined.map((row) => row.finished - episodeStart(row) - row.trajectory.timings.wallMs),
    ),
    percentiles(
      "job finished -> trainer has it",
      joined.map((row) => row.returned - row.finished),
    ),
  ];
  const timings = server.timings();
  const arrivals = timings.map((timing) => timing.arrived).sort((a, b) => a - b);
  console.log(
    JSON.stringify(
      {
        concurrency: capacity,
        latencyMs,
        rollouts: count,
        ratioOfIdeal: Number((count / (wall / 1000) / (capacity / (latencyMs / 1000))).toFixed(3)),
        steps,
        serverAnswerMs: percentiles(
          "server: slot -> answer",
          timings.map((timing) => timing.answered - timing.started),
        ),
        serverMeanBusy: Number(meanBusy(timings).toFixed(1)),
        firstRequestAfterMs: Math.round(arrivals[0] - started),
        requestNumberCAfterMs: Math.round(arrivals[Math.min(capacity, arrivals.length) - 1] - started),
        cpuMsPerRollout: {
          trainer: Number((trainerCpuMs / count).toFixed(2)),
          worker: Number((workerCpuMs / count).toFixed(2)),
        },
        loadAverage: loadavg().map((value) => Number(value.toFixed(2))),
      },
      null,
      1,
    ),
  );
} finally {
  await server.close();
  await redis.stop();
}
process.exit(0);
