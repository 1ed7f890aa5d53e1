import { createLookupBenchmark, createLookupGrammar } from "@hs/harness/test-environments";
import { afterAll, beforeAll, expect, it } from "vitest";
import { comparable, lookupWorkload } from "./__fixtures__/lookup-workload.js";
import { freePort, killHard, spawnWorker, startRedisServer } from "./__fixtures__/processes.js";
import { describeWithRedis, privateQueueName, requireRedis } from "./__fixtures__/redis-for-tests.js";
import { hangingBenchmark, slowBenchmark, startFaultyWorker } from "./fault-drills/index.js";
import { createQueueExecutor, type QueueExecutor } from "./queue-executor.js";
import { startRolloutWorker } from "./rollout-worker.js";

let reference: string[] = [];
beforeAll(async () => {
  reference = comparable(await lookupWorkload(1));
});

const lookup = { openBenchmark: async () => createLookupBenchmark(), grammarOf: () => createLookupGrammar() };
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
});

function executor(redisUrl: string, queueName: string, extra: { timeLimitMs?: number } = {}): QueueExecutor {
  const created = createQueueExecutor({
    redisUrl,
    queueName,
    run: queueName,
    phase: "drill",
    benchmark: { specifier: "lookup", options: {}, tasks: {} },
    pollMs: 200,
    concurrency: 16,
    ...extra,
  });
  closers.push(() => created.close());
  return created;
}

describeWithRedis("the queue under faults: every rollout once, the same as in process", () => {
  it("reruns the jobs of a worker SIGKILLed mid-episode on another worker (stalled-job recovery)", async () => {
    const redisUrl = requireRedis();
    const queueName = privateQueueName("kill");
    const victim = await spawnWorker([
      "--redis",
      redisUrl,
      "--queue",
      queueName,
      "--concurrency",
      "4",
      "--step-delay-ms",
      "150",
    ]);
    closers.push(() => killHard(victim));
    const queue = executor(redisUrl, queueName);
    const results = lookupWorkload(1, queue);
    await new Promise((done) => setTimeout(done, 500));
    await killHard(victim);
    let stalled = 0;
    const rescuer = startRolloutWorker({
      redisUrl,
      queueName,
      concurrency: 4,
      lockDurationMs: 1000,
      stalledIntervalMs: 300,
      ...lookup,
    });
    rescuer.worker.on("stalled", () => stalled++);
    closers.push(() => rescuer.close());
    expect(comparable(await results)).toEqual(reference);
    expect(stalled).toBeGreaterThan(0);
    expect(queue.completed).toBe(reference.length);
  });

  it("refuses garbage, another job's trajectory and a result of another version, and runs those jobs again", async () => {
    const redisUrl = requireRedis();
    const queueName = privateQueueName("refuse");
    const faulty = (["garbage", "other-job", "other-version-unchecked"] as const).map((behaviour) =>
      startFaultyWorker({
        redisUrl,
        queueName,
        behaviour,
        openBenchmark: lookup.openBenchmark,
        grammar: createLookupGrammar,
        maxJobs: 3,
      }),
    );
    for (const worker of faulty) closers.push(() => worker.close());
    const queue = executor(redisUrl, queueName);
    const results = lookupWorkload(1, queue);
    await new Promise((done) => setTimeout(done, 300));
    const good = startRolloutWorker({ redisUrl, queueName, concurrency: 2, ...lookup });
    closers.push(() => good.close());
    expect(comparable(await results)).toEqual(reference);
    const spoiled = faulty.reduce((sum, worker) => sum + worker.spoiled(), 0);
    expect(spoiled).toBeGreaterThanOrEqual(3);
    // every spoiled answer that reached the trainer was refused (one may still be under way at the end)
    expect(queue.faults["refused-result"]).toBeGreaterThanOrEqual(3);
    expect(queue.faults["refused-result"]).toBeLessThanOrEqual(spoiled);
  });

  it("a worker of another version gives its jobs back; a job past its time limit and a slow worker cost nothing", async () => {
    const redisUrl = requireRedis();
    const queueName = privateQueueName("version");
    const refusals: string[] = [];
    const failures: string[] = [];
    const slow = startRolloutWorker({
      redisUrl,
      queueName,
      openBenchmark: async () => slowBenchmark(createLookupBenchmark(), 100),
      grammarOf: lookup.grammarOf,
    });
    // the slow worker's episodes (100 ms a step, several at once) must fit in the limit with room to
    // spare on a loaded machine: at 400 ms one job once used up its attempts in a loaded CI run
    const queue = executor(redisUrl, queueName, { timeLimitMs: 1_200 });
    const results = lookupWorkload(1, queue);
    await new Promise((done) => setTimeout(done, 300));
    const foreign = startRolloutWorker({
      redisUrl,
      queueName,
      queueVersion: "0.0.0-other",
      ...lookup,
      onEvent: (event) => event.kind === "refused" && refusals.push(event.jobId),
    });
    const hanging = startRolloutWorker({
      redisUrl,
      queueName,
      concurrency: 2,
      openBenchmark: async () => hangingBenchmark(createLookupBenchmark(), 2),
      grammarOf: lookup.grammarOf,
      onEvent: (event) => event.kind === "failed" && failures.push(event.message ?? ""),
    });
    for (const worker of [foreign, hanging, slow]) closers.push(() => worker.close());
    expect(comparable(await results)).toEqual(reference);
    expect(refusals.length).toBeGreaterThan(0);
    expect(failures.filter((message) => message.includes("time limit")).length).toBe(2);
    expect(slow.done).toBeGreaterThan(0);
    expect(queue.faults["failed-job"]).toBe(0);
  });

  it("survives a Redis restarted mid-run without its data: lost jobs are enqueued again", async () => {
    const port = await freePort();
    const redisUrl = `redis://127.0.0.1:${port}`;
    let server = await startRedisServer(port);
    closers.push(() => killHard(server));
    const queueName = privateQueueName("restart");
    const worker = startRolloutWorker({
      redisUrl,
      queueName,
      concurrency: 2,
      openBenchmark: async () => slowBenchmark(createLookupBenchmark(), 40),
      grammarOf: lookup.grammarOf,
      lockDurationMs: 1000,
      stalledIntervalMs: 300,
    });
    closers.push(() => worker.close());
    const queue = executor(redisUrl, queueName);
    const results = lookupWorkload(1, queue);
    while (queue.completed < 4) await new Promise((done) => setTimeout(done, 20));
    await killHard(server);
    server = await startRedisServer(port);
    expect(comparable(await results)).toEqual(reference);
    expect(queue.faults["lost-job"]).toBeGreaterThan(0);
  });
});
