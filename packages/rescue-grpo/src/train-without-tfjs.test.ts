import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createLookupBenchmark,
  createLookupSensitivePolicy,
  createRecordingLearner,
  lookupPool,
  lookupTextHarness,
} from "@hs/harness/test-environments";
import type { PolicyV1, Trajectory } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { createRescuer } from "./rescue.js";
import { type GroupRescuer, type StepMetrics, trainGrpo } from "./trainer.js";
import { defaultTrainerConfig } from "./trainer-config.js";

const directories: string[] = [];
afterAll(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

describe("the GRPO core without tfjs", () => {
  it("declares no dependency on the embedded policy or tfjs", async () => {
    const manifest = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
    const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
    expect(names.filter((name) => /policy-embedded|tensorflow/.test(name))).toEqual([]);
  });

  it("trains with any LearnerV1 and rescues all-fail groups under the pool's siblings", async () => {
    const outDirectory = await mkdtemp(join(tmpdir(), "hs-core-"));
    directories.push(outDirectory);
    const benchmark = createLookupBenchmark();
    const { tasks } = await benchmark.loadTasks({});
    const policy = createLookupSensitivePolicy();
    const learner = createRecordingLearner();
    const config = {
      ...defaultTrainerConfig("harness-s", 3),
      groupSize: 2,
      promptsPerStep: 2,
      rolloutBudget: 24,
    };
    const rescue = createRescuer({
      benchmark,
      pool: lookupPool,
      policy,
      selection: "all",
      k: 2,
      rescueBudget: 4,
      keepBaseNegative: true,
      seed: 3,
      profiles: () => null,
      classify: async () => [],
    });
    const steps: StepMetrics[] = [];
    const summary = await trainGrpo(
      {
        benchmark,
        harness: lookupTextHarness,
        tasks,
        policy,
        learner,
        outDirectory,
        rescue,
        onStep: (m) => steps.push(m),
      },
      config,
    );
    expect(summary.rollouts).toBeLessThanOrEqual(24);
    expect(learner.updates).toBe(steps.length);
    expect(steps.reduce((sum, step) => sum + (step.rescue.attempts ?? 0), 0)).toBeGreaterThan(0);
    const harnesses = new Set(
      learner.batches.flatMap((batch) => batch.samples.map((sample) => sample.harnessId)),
    );
    expect([...harnesses].some((id) => id.startsWith("sibling-"))).toBe(true);
  });

  it("adds the credited steps of harness calls only when the config turns the credit on, and counts them", async () => {
    const benchmark = createLookupBenchmark();
    const { tasks } = await benchmark.loadTasks({});
    const run = async (on: boolean, withCredit: boolean) => {
      const outDirectory = await mkdtemp(join(tmpdir(), "hs-credit-"));
      directories.push(outDirectory);
      const policy = createLookupSensitivePolicy();
      const learner = createRecordingLearner();
      const base = defaultTrainerConfig("grpo", 3);
      const config = { ...base, groupSize: 2, promptsPerStep: 2, rolloutBudget: 8 };
      if (on) config.rescue = { ...base.rescue, creditHarnessCalls: true };
      const steps: StepMetrics[] = [];
      // a stand-in credit: one more step per trajectory, its first one again
      const credit = (trajectory: Trajectory) =>
        trajectory.steps.slice(0, 1).map(({ view, action }) => ({ view, action }));
      await trainGrpo(
        {
          ...{ benchmark, harness: lookupTextHarness, tasks, policy, learner, outDirectory },
          ...(withCredit ? { creditHarnessCalls: credit } : {}),
          onStep: (metrics) => steps.push(metrics),
        },
        config,
      );
      const trained = learner.batches
        .flatMap((batch) => batch.samples)
        .reduce((sum, sample) => sum + sample.steps.length, 0);
      return { trained, credited: steps.map((step) => step.rescue.creditedSteps) };
    };
    const off = await run(false, true);
    const on = await run(true, true);
    expect(off.credited).toEqual([undefined, undefined]);
    expect(on.credited).toEqual([4, 4]);
    expect(on.trained - off.trained).toBe(8);
    await expect(run(true, false)).rejects.toThrow(
      /harness-call credit is on but the run has no creditHarnessCalls/,
    );
  });
});

describe("the rescue gate", () => {
  // fresh prompts: "france" and "peru" succeed on odd seeds only (a group with signal); "kenya" never
  const coinPolicy: PolicyV1 = {
    specificationVersion: "v1",
    id: "coin",
    version: "1",
    async act(view, { seed }) {
      const all = view.messages.map((message) => message.content).join("\n");
      const country = /capital of (\w+)\?/.exec(all)?.[1] ?? "france";
      const answers: Record<string, string> = { france: "Paris", peru: "Lima" };
      const right = answers[country] !== undefined && seed % 2 === 1;
      return { content: `answer: ${right ? answers[country] : "unknown"}`, logprob: null };
    },
  };
  // a rescue that never saves a group, at the full rescue budget
  const failingRescuer =
    (calls: { count: number }): GroupRescuer =>
    async () => {
      calls.count++;
      return { group: null, rollouts: 4, trajectories: [], metrics: { attempts: 1, successes: 0 } };
    };

  const train = async (gate: "always" | "yield", outDirectory: string, stopAfter?: number) => {
    const benchmark = createLookupBenchmark();
    const { tasks } = await benchmark.loadTasks({});
    const calls = { count: 0 };
    const base = defaultTrainerConfig("harness-s", 5);
    const config = {
      ...base,
      ...{ groupSize: 4, promptsPerStep: 2, rolloutBudget: 96 },
      rescue: { ...base.rescue, budget: 4, gate },
    };
    const steps: StepMetrics[] = [];
    await trainGrpo(
      {
        ...{ benchmark, harness: lookupTextHarness, tasks, policy: coinPolicy, outDirectory },
        ...{ learner: createRecordingLearner(), rescue: failingRescuer(calls) },
        onStep: (metrics) => steps.push(metrics),
        afterStep: async (step) => {
          if (step === stopAfter) throw new Error("stopped");
        },
      },
      config,
    );
    return { calls: calls.count, steps };
  };

  it("stops rescuing once rescues buy less signal a rollout than fresh prompts, and counts the groups it held back", async () => {
    const always = await train("always", await runDirectory());
    const gated = await train("yield", await runDirectory());
    const gatedCount = gated.steps.reduce((sum, step) => sum + (step.rescue.gated ?? 0), 0);
    expect(always.steps.every((step) => step.rescue.gated === undefined)).toBe(true);
    expect(gated.calls).toBeGreaterThan(0);
    expect(gatedCount).toBeGreaterThan(0);
    expect(gated.calls).toBeLessThan(always.calls);
    // the rollouts the gate kept went to fresh prompts: more base groups drawn at the same budget
    const drawn = (run: typeof always) => run.steps.reduce((sum, step) => sum + step.promptsDrawn, 0);
    expect(drawn(gated)).toBeGreaterThan(drawn(always));
  });

  it("carries what the rollouts bought across a resume, so a resumed run gates as an unbroken one", async () => {
    const whole = await train("yield", await runDirectory());
    const directory = await runDirectory();
    await expect(train("yield", directory, 4)).rejects.toThrow("stopped");
    const resumed = await train("yield", directory);
    const lines = (await readFile(join(directory, "metrics.jsonl"), "utf8")).trim().split("\n");
    const gatedOf = (steps: { rescue: Record<string, number> }[]) =>
      steps.map((step) => step.rescue.gated ?? 0);
    expect(resumed.steps.length).toBe(whole.steps.length - 3);
    expect(gatedOf(lines.map((line) => JSON.parse(line)))).toEqual(gatedOf(whole.steps));
  });
});

async function runDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "hs-gate-"));
  directories.push(directory);
  return directory;
}
