// The fault suite of the rollout queue on a real training run: `hs train --bench dbbench --redis URL`
// while rollout workers (`hs worker`) are SIGKILLed at random moments and restarted, the trainer itself
// is SIGKILLed mid-run and started again (it resumes from its last checkpoint), Redis is SIGKILLed and
// restarted without its data, and bad workers take jobs beside the good ones: one returning garbage, one
// returning another job's trajectory, one stamping its results with another version (refused by the
// trainer), one of another version (it gives its jobs back), one whose episodes hang (the time limit
// frees them) and a slow one. The run must end with the same trajectories (clock fields aside), metrics
// and final weights as the same command run in process without any fault: nothing lost, nothing counted
// twice. Prints the faults injected and whether the run survived them.
//
//   pnpm build && node bench/queue-faults.mjs [--budget 64] [--seed 1] [--worker-kills 4]
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { rolloutQueueName } from "../packages/queue/dist/index.js";
import { startRedis, startWorker, stopProcess, withoutClock } from "./queue-bench-kit.mjs";

const { values } = parseArgs({
  options: {
    budget: { type: "string", default: "64" },
    seed: { type: "string", default: "1" },
    "worker-kills": { type: "string", default: "4" },
  },
});
const cli = new URL("../apps/trainer/dist/cli.js", import.meta.url).pathname;
const sleep = (milliseconds) => new Promise((done) => setTimeout(done, milliseconds));
const random = (() => {
  let state = Number(values.seed) * 2654435761 + 1;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
})();

const trainArgs = (out, redisUrl) => [
  ...["train", "--bench", "dbbench", "--method", "grpo", "--seed", values.seed, "--budget", values.budget],
  ...["--group-size", "4", "--prompts-per-step", "2", "--out", out],
  ...(redisUrl === undefined ? [] : ["--redis", redisUrl, "--episode-time-limit", "3000"]),
];

function hs(args, logTo) {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  child.lines = [];
  const collect = (chunk) => {
    for (const line of chunk.toString().split("\n")) if (line !== "") child.lines.push(line);
    logTo?.push(
      ...chunk
        .toString()
        .split("\n")
        .filter((line) => line !== ""),
    );
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  child.done = new Promise((done) => child.on("exit", (code, signal) => done(signal ?? code)));
  return child;
}

const metricLines = (out) =>
  existsSync(join(out, "metrics.jsonl"))
    ? readFileSync(join(out, "metrics.jsonl"), "utf8").split("\n").filter(Boolean).length
    : 0;

function sameRun(left, right) {
  const lines = (directory, file) =>
    readFileSync(join(directory, file), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.stringify(withoutClock(JSON.parse(line))));
  const same = {};
  for (const file of ["trajectories.jsonl", "metrics.jsonl"]) {
    const [a, b] = [lines(left, file), lines(right, file)];
    same[file] = { lines: a.length, identical: JSON.stringify(a) === JSON.stringify(b) };
  }
  same["final/policy.json"] = readFileSync(join(left, "final/policy.json")).equals(
    readFileSync(join(right, "final/policy.json")),
  );
  return same;
}

const scratch = await mkdtemp(join(tmpdir(), "hs-queue-faults-"));
let redis = await startRedis();
const port = redis.port;
const counts = {
  workerKills: 0,
  trainerKills: 0,
  redisRestarts: 0,
  badWorkers: 0,
  refusedResults: 0,
  lostJobs: 0,
  failedJobs: 0,
  versionRefusals: 0,
  timeLimits: 0,
};
const trainerLog = [];
const workerLog = [];
try {
  const reference = join(scratch, "in-process");
  const plain = hs(trainArgs(reference));
  if ((await plain.done) !== 0)
    throw new Error(`the in-process run failed:\n${plain.lines.slice(-10).join("\n")}`);

  const queueName = rolloutQueueName();
  const good = () =>
    hs(["worker", "--redis", redis.url, "--concurrency", "2", "--lock-ms", "2000"], workerLog);
  let workers = [good(), good(), good()];
  const fixture = (behaviour, extra = []) =>
    startWorker([
      "--redis",
      redis.url,
      "--queue",
      queueName,
      "--bench",
      "dbbench",
      "--behaviour",
      behaviour,
      "--lock-ms",
      "2000",
      "--stalled-ms",
      "1000",
      ...extra,
    ]);
  const bad = await Promise.all([
    fixture("garbage"),
    fixture("other-job"),
    fixture("other-version-unchecked"),
    fixture("other-version"),
    fixture("good", ["--hang-episodes", "2"]),
    fixture("good", ["--step-delay-ms", "200"]),
  ]);
  counts.badWorkers = bad.length;
  for (const child of bad)
    child.stdout.on("data", (chunk) => workerLog.push(...chunk.toString().split("\n")));

  const queued = join(scratch, "queue");
  let trainer = hs(trainArgs(queued, redis.url), trainerLog);
  const steps = Number(values.budget) / 8;
  const killTrainerAt = Math.max(1, Math.floor(steps / 3));
  const restartRedisAt = Math.max(killTrainerAt + 1, Math.floor((2 * steps) / 3));
  let trainerKilled = false;
  let redisRestarted = false;
  let workerKillsLeft = Number(values["worker-kills"]);
  let result;
  for (;;) {
    const ended = await Promise.race([trainer.done, sleep(500 + random() * 1500).then(() => "running")]);
    if (ended !== "running") {
      result = ended;
      break;
    }
    if (workerKillsLeft > 0) {
      const victim = Math.floor(random() * workers.length);
      await stopProcess(workers[victim], "SIGKILL");
      workers[victim] = good();
      counts.workerKills++;
      workerKillsLeft--;
    }
    if (!trainerKilled && metricLines(queued) >= killTrainerAt) {
      await stopProcess(trainer, "SIGKILL");
      counts.trainerKills++;
      trainerKilled = true;
      trainer = hs(trainArgs(queued, redis.url), trainerLog);
    }
    if (!redisRestarted && metricLines(queued) >= restartRedisAt) {
      await stopProcess(redis.child, "SIGKILL");
      redis = await startRedis(port);
      counts.redisRestarts++;
      redisRestarted = true;
    }
  }
  for (const child of [...workers, ...bad]) await stopProcess(child, "SIGKILL");
  workers = [];
  const count = (pattern, log) => log.filter((line) => pattern.test(line)).length;
  counts.refusedResults = count(/^queue: refused-result/, trainerLog);
  counts.lostJobs = count(/^queue: lost-job/, trainerLog);
  counts.failedJobs = count(/^queue: failed-job/, trainerLog);
  counts.versionRefusals = count(/^refused /, workerLog);
  counts.timeLimits = count(/time limit/, workerLog);
  const comparison = result === 0 ? sameRun(reference, queued) : null;
  const survived =
    comparison?.["trajectories.jsonl"].identical === true &&
    comparison["metrics.jsonl"].identical &&
    comparison["final/policy.json"];
  console.log(
    JSON.stringify(
      {
        budget: Number(values.budget),
        seed: Number(values.seed),
        trainerExit: result,
        faults: counts,
        comparison,
        survived,
      },
      null,
      1,
    ),
  );
  if (!survived) console.log(trainerLog.slice(-15).join("\n"));
  process.exitCode = survived ? 0 : 1;
} finally {
  await redis.stop();
  await rm(scratch, { recursive: true, force: true });
}
