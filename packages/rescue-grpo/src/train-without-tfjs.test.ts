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
import type { Trajectory } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { createRescuer } from "./rescue.js";
import { type StepMetrics, trainGrpo } from "./trainer.js";
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
