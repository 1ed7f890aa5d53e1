import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createLookupBenchmark,
  createLookupGrammar,
  createLookupSensitivePolicy,
  createRecordingLearner,
  lookupPool,
  lookupTextHarness,
} from "@hs/harness/test-environments";
import { EmbeddedGrpoLearner, embeddedReplayAction } from "@hs/learner-embedded";
import { createEmbeddedPolicy } from "@hs/policy-embedded";
import { profilePool } from "@hs/profiles";
import {
  defaultTrainerConfig,
  type SamplingMethod,
  type StepMetrics,
  type TrainerConfig,
} from "@hs/rescue-grpo";
import type { RouterV1 } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { bestValidatedSibling, methodSelection } from "./method-selection.js";
import { trainMethod } from "./train-method.js";

type RescueSettings = TrainerConfig["rescue"];
const lookupBenchmark = createLookupBenchmark();
const directories: string[] = [];
afterAll(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});
async function scratch() {
  const directory = await mkdtemp(join(tmpdir(), "hs-method-"));
  directories.push(directory);
  return directory;
}

describe("trainMethod", () => {
  it("runs the README example: Harness-S with the embedded policy and learner, no CLI", async () => {
    const benchmark = createLookupBenchmark();
    const { tasks } = await benchmark.loadTasks({});
    const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed: 1 });
    const { profiles } = await profilePool({
      benchmark,
      policy,
      pool: lookupPool,
      tasks,
      rolloutsPerTask: 2,
    });
    const config = {
      ...defaultTrainerConfig("harness-s", 1),
      groupSize: 4,
      promptsPerStep: 2,
      rolloutBudget: 48,
    };
    const learner = new EmbeddedGrpoLearner({ policy, learningRate: 0.05 });
    const outDirectory = await scratch();
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
    });
    learner.dispose();
    policy.dispose();
    expect(summary.rollouts).toBeLessThanOrEqual(48);
    const metrics = (await readFile(join(outDirectory, "metrics.jsonl"), "utf8")).trim().split("\n");
    expect(metrics.length).toBe(summary.steps);
    expect(JSON.parse(await readFile(join(outDirectory, "config.json"), "utf8")).method).toBe("harness-s");
  });

  it("runs every baseline through the same call; only rescuing methods spend rescue rollouts", async () => {
    const benchmark = createLookupBenchmark();
    const { tasks } = await benchmark.loadTasks({});
    const rescued: Record<string, number> = {};
    for (const method of [
      "grpo",
      "dapo",
      "single-sibling",
      "random-rescue",
      "all-rescue",
      "harness-s",
    ] as const) {
      const steps: StepMetrics[] = [];
      const config = {
        ...defaultTrainerConfig(method, 4),
        groupSize: 2,
        promptsPerStep: 2,
        rolloutBudget: 24,
      };
      await trainMethod({
        benchmark,
        harness: lookupTextHarness,
        tasks,
        policy: createLookupSensitivePolicy(),
        learner: createRecordingLearner(),
        config,
        outDirectory: await scratch(),
        pool: lookupPool,
        onStep: (step) => steps.push(step),
      });
      rescued[method] = steps.reduce((sum, step) => sum + step.rolloutsRescue, 0);
    }
    expect(rescued.grpo).toBe(0);
    expect(rescued.dapo).toBe(0);
    for (const method of Object.keys(methodSelection)) expect(rescued[method]).toBeGreaterThan(0);
  });

  it("routes harness-s through any RouterV1 given, and asks it once per rescue", async () => {
    const benchmark = createLookupBenchmark();
    const { tasks } = await benchmark.loadTasks({});
    const asked: string[] = [];
    const router: RouterV1 = {
      specificationVersion: "v1",
      id: "always-verification",
      async route(input) {
        asked.push(input.task.id);
        const ranking = [{ harnessId: "sibling-verification", score: 1, reasons: ["fixed"] }];
        return { ranking, selected: ["sibling-verification"] };
      },
    };
    const steps: StepMetrics[] = [];
    await trainMethod({
      benchmark,
      harness: lookupTextHarness,
      tasks,
      policy: createLookupSensitivePolicy(),
      learner: createRecordingLearner(),
      config: { ...defaultTrainerConfig("harness-s", 5), groupSize: 2, promptsPerStep: 2, rolloutBudget: 24 },
      outDirectory: await scratch(),
      pool: lookupPool,
      router,
      onStep: (step) => steps.push(step),
    });
    const attempts = steps.reduce((sum, step) => sum + (step.rescue.attempts ?? 0), 0);
    expect(attempts).toBeGreaterThan(0);
    expect(asked.length).toBe(attempts);
    const siblingRollouts = steps.reduce(
      (sum, step) => sum + (step.rescue["sibling:sibling-budget:rollouts"] ?? 0),
      0,
    );
    expect(siblingRollouts).toBe(0);
  });

  it("needs a pool for rescuing methods and picks the best validated sibling for single-sibling", async () => {
    const benchmark = createLookupBenchmark();
    const { tasks } = await benchmark.loadTasks({});
    const run = (method: SamplingMethod) =>
      trainMethod({
        benchmark,
        harness: lookupTextHarness,
        tasks,
        policy: createLookupSensitivePolicy(),
        learner: createRecordingLearner(),
        config: defaultTrainerConfig(method, 0),
        outDirectory: "/nonexistent",
      });
    await expect(run("all-rescue")).rejects.toThrow(/needs a sibling pool/);
    expect(bestValidatedSibling(lookupPool)).toBe("sibling-budget");
  });

  /** All-rescue on the lookup benchmark (96 rollouts, G = 4) with `rescue` settings; its step metrics. */
  async function lookupRescueRun(rescue: Partial<RescueSettings>, withReplayAction: boolean) {
    const { tasks } = await lookupBenchmark.loadTasks({});
    const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed: 1 });
    const learner = new EmbeddedGrpoLearner({ policy, learningRate: 0.05 });
    const defaults = defaultTrainerConfig("all-rescue", 1);
    const config = {
      ...defaults,
      ...{ groupSize: 4, promptsPerStep: 2, rolloutBudget: 96 },
      rescue: { ...defaults.rescue, ...rescue },
    };
    const outDirectory = await scratch();
    try {
      await trainMethod({
        ...{ benchmark: lookupBenchmark, harness: lookupTextHarness, tasks, policy, learner },
        ...{ config, outDirectory, pool: lookupPool },
        ...(withReplayAction ? { replayAction: embeddedReplayAction(policy) } : {}),
      });
      const lines = (await readFile(join(outDirectory, "metrics.jsonl"), "utf8")).trim().split("\n");
      return lines.map((line) => JSON.parse(line) as StepMetrics);
    } finally {
      learner.dispose();
      policy.dispose();
    }
  }

  it("replays rescues under the base harness when asked, counting each replay as a rollout", async () => {
    const run = (replay: "base" | undefined, withAction: boolean) =>
      lookupRescueRun(replay === undefined ? {} : { replay }, withAction);
    const sum = (steps: StepMetrics[], name: string) =>
      steps.reduce((total, step) => total + (step.rescue[name] ?? 0), 0);
    const plain = await run(undefined, true);
    expect(sum(plain, "replays")).toBe(0);
    const replayed = await run("base", true);
    expect(sum(replayed, "successes")).toBeGreaterThan(0);
    expect(sum(replayed, "replays")).toBeGreaterThanOrEqual(sum(replayed, "successes"));
    expect(sum(replayed, "replaysKept")).toBeGreaterThan(0);
    expect(sum(replayed, "replaysKept")).toBeLessThanOrEqual(sum(replayed, "replays"));
    expect(replayed.at(-1)!.rolloutsTotal).toBeLessThanOrEqual(96);
    await expect(run("base", false)).rejects.toThrow(/rescue.replay is base/);
  });

  it("trains every base failure beside the rescue's successes when rescue.negatives is base", async () => {
    const run = (negatives: "base" | undefined) =>
      lookupRescueRun(negatives === undefined ? {} : { negatives }, false);
    const rescuedSuccesses = (step: StepMetrics) =>
      Object.entries(step.rescue)
        .filter(([name]) => name.startsWith("sibling:") && name.endsWith(":successes"))
        .reduce((total, [, count]) => total + count, 0);
    const base = await run("base");
    const saved = base.filter((step) => rescuedSuccesses(step) > 0);
    expect(saved.length).toBeGreaterThan(0);
    for (const step of base)
      expect(step.learner.samples).toBe(step.groupsTrained * 4 + rescuedSuccesses(step));
    const sibling = await run(undefined);
    const first = sibling.findIndex((step) => rescuedSuccesses(step) > 0);
    expect(sibling[first]!.learner.samples).not.toBe(
      sibling[first]!.groupsTrained * 4 + rescuedSuccesses(sibling[first]!),
    );
  });
});
