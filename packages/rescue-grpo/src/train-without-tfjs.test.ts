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
});
