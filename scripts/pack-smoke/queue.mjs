import { runEpisode } from "@hs/harness";
import { createLookupBenchmark, createLookupGrammar, lookupTextHarness } from "@hs/harness/test-environments";
import { createEmbeddedPolicy } from "@hs/policy-embedded";
import { createQueueExecutor, rolloutJobId, startRolloutWorker } from "@hs/queue";

// Job ids are stable; with the test command's Redis (HS_REDIS_URL), two lookup episodes go through a
// worker and come back equal to the same episodes run in process.
const key = {
  run: "r",
  phase: "p",
  policyVersion: "v",
  taskId: "t",
  harnessHash: "h",
  seed: 1,
  mode: "sample",
};
if (rolloutJobId(key) !== rolloutJobId({ ...key })) throw new Error("job ids are not stable");
const redisUrl = process.env.HS_REDIS_URL;
if (redisUrl === undefined) {
  console.log("queue: job ids stable; HS_REDIS_URL not set, so no episode went through a queue");
} else {
  const benchmark = createLookupBenchmark();
  const { tasks } = await benchmark.loadTasks({});
  const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed: 2 });
  const queueName = `hs-smoke-${process.pid}-${Date.now()}`;
  const worker = startRolloutWorker({
    redisUrl,
    queueName,
    openBenchmark: async () => createLookupBenchmark(),
    grammarOf: () => createLookupGrammar(),
  });
  const executor = createQueueExecutor({
    redisUrl,
    queueName,
    run: queueName,
    phase: "smoke",
    benchmark: { specifier: "lookup", options: {}, tasks: {} },
  });
  const strip = ({ timings: _timings, steps, ...rest }) =>
    JSON.stringify({ ...rest, steps: steps.map(({ policyMs: _p, environmentMs: _e, ...step }) => step) });
  for (const task of tasks.slice(0, 2)) {
    const options = { task, benchmark, harness: lookupTextHarness, policy, seed: 3 };
    const [queued, local] = [await executor.run(options), await runEpisode(options)];
    if (strip(queued) !== strip(local)) throw new Error(`task ${task.id}: the queue's trajectory differs`);
  }
  await executor.close();
  await worker.close();
  policy.dispose();
  console.log("queue: 2 lookup episodes through a worker, equal to the same episodes in process");
}
