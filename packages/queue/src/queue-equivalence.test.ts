import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EpisodeExecutor } from "@hs/harness";
import {
  createLookupBenchmark,
  createLookupGrammar,
  lookupPool,
  lookupTextHarness,
} from "@hs/harness/test-environments";
import { trainMethod } from "@hs/harness-s";
import { EmbeddedGrpoLearner } from "@hs/learner-embedded";
import { createEmbeddedPolicy } from "@hs/policy-embedded";
import { profilePool } from "@hs/profiles";
import { defaultTrainerConfig } from "@hs/rescue-grpo";
import type { ProfileSet } from "@hs/spec";
import { afterAll, expect, it } from "vitest";
import { describeWithRedis, privateQueueName, requireRedis } from "./__fixtures__/redis-for-tests.js";
import { firstDifference, withoutClock } from "./__fixtures__/run-files.js";
import { createQueueExecutor } from "./queue-executor.js";
import { startRolloutWorker } from "./rollout-worker.js";

const directories: string[] = [];
afterAll(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

/** Profiles the lookup pool, then trains Harness-S with re-anchoring, every rollout through `executor`. */
async function profileAndTrain(executors: { profile?: EpisodeExecutor; train?: EpisodeExecutor }) {
  const outDirectory = await mkdtemp(join(tmpdir(), "hs-queue-equivalence-"));
  directories.push(outDirectory);
  const benchmark = createLookupBenchmark();
  const { tasks } = await benchmark.loadTasks({});
  const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed: 3 });
  const { profiles } = await profilePool({
    benchmark,
    policy,
    pool: lookupPool,
    tasks,
    rolloutsPerTask: 2,
    ...(executors.profile === undefined ? {} : { executor: executors.profile }),
  });
  const config = {
    ...defaultTrainerConfig("harness-s", 3),
    groupSize: 4,
    promptsPerStep: 2,
    rolloutBudget: 64,
    rescue: { ...defaultTrainerConfig("harness-s", 3).rescue, reanchorEvery: 2 },
  };
  const learner = new EmbeddedGrpoLearner({ policy, learningRate: 0.05 });
  const { summary } = await trainMethod({
    benchmark,
    harness: lookupTextHarness,
    tasks,
    policy,
    learner,
    config,
    outDirectory,
    pool: lookupPool,
    profiles,
    ...(executors.train === undefined ? {} : { executor: executors.train }),
  });
  learner.dispose();
  policy.dispose();
  return { outDirectory, summary, profiles: profiles as ProfileSet };
}

describeWithRedis("the queue against an in-process run", () => {
  it("gives byte-identical trajectories, metrics, profiles and weights with the same seed", async () => {
    const redisUrl = requireRedis();
    const queueName = privateQueueName("equivalence");
    const workers = [1, 2].map((index) =>
      startRolloutWorker({
        redisUrl,
        queueName,
        concurrency: 4,
        name: `equivalence-${index}`,
        openBenchmark: async () => createLookupBenchmark(),
        grammarOf: () => createLookupGrammar(),
      }),
    );
    const run = `equivalence-${Date.now()}`;
    const benchmark = { specifier: "lookup", options: {}, tasks: {} };
    const profile = createQueueExecutor({
      redisUrl,
      queueName,
      run,
      phase: "profile",
      benchmark,
      pollMs: 200,
    });
    const train = createQueueExecutor({ redisUrl, queueName, run, phase: "train", benchmark, pollMs: 200 });
    try {
      const inProcess = await profileAndTrain({});
      const queued = await profileAndTrain({ profile, train });
      expect(queued.summary.rollouts).toBe(inProcess.summary.rollouts);
      expect(JSON.stringify(queued.profiles)).toBe(JSON.stringify(inProcess.profiles));
      for (const file of ["trajectories.jsonl", "metrics.jsonl"]) {
        expect(await firstDifference(queued.outDirectory, inProcess.outDirectory, file)).toBeNull();
      }
      const weights = (directory: string) => readFile(join(directory, "final", "policy.json"));
      expect((await weights(queued.outDirectory)).equals(await weights(inProcess.outDirectory))).toBe(true);
      const metrics = (await withoutClock(queued.outDirectory, "metrics.jsonl")).map((line) =>
        JSON.parse(line),
      );
      // rescue rollouts went through the queue too
      expect(metrics.some((line) => line.rolloutsRescue > 0)).toBe(true);
      expect(profile.completed).toBeGreaterThan(0);
      expect(train.completed).toBeGreaterThanOrEqual(inProcess.summary.rollouts);
      expect(workers.reduce((sum, worker) => sum + worker.done, 0)).toBeGreaterThan(0);
      expect({ ...profile.faults, ...train.faults }).toEqual({
        "refused-result": 0,
        "failed-job": 0,
        "lost-job": 0,
      });
    } finally {
      await profile.close();
      await train.close();
      for (const worker of workers) await worker.close();
    }
  });
});
