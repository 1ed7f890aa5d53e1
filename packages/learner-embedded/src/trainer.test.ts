import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLookupBenchmark, lookupTextHarness } from "@hs/harness/test-environments";
import { createEmbeddedPolicy } from "@hs/policy-embedded";
import {
  collectGroup,
  defaultTrainerConfig,
  type GroupRescuer,
  groupAllFailed,
  type SamplingMethod,
  type StepMetrics,
  trainGrpo,
} from "@hs/rescue-grpo";
import { afterAll, describe, expect, it } from "vitest";
import { createLookupGrammar } from "./__fixtures__/lookup-grammar.js";
import { EmbeddedGrpoLearner } from "./embedded-learner.js";

const benchmark = createLookupBenchmark();
const { tasks } = await benchmark.loadTasks({});
const directories: string[] = [];
afterAll(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

async function run(method: SamplingMethod, seed: number, budget: number, rescue?: GroupRescuer) {
  const outDirectory = await mkdtemp(join(tmpdir(), "hs-train-"));
  directories.push(outDirectory);
  const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed });
  const learner = new EmbeddedGrpoLearner({ policy, learningRate: 0.05 });
  const config = {
    ...defaultTrainerConfig(method, seed),
    groupSize: 4,
    promptsPerStep: 2,
    maxDrawsPerStep: 6,
    rolloutBudget: budget,
    checkpointEvery: 2,
  };
  const steps: StepMetrics[] = [];
  const summary = await trainGrpo(
    {
      benchmark,
      harness: lookupTextHarness,
      tasks,
      policy,
      learner,
      outDirectory,
      onStep: (metrics) => steps.push(metrics),
      ...(rescue === undefined ? {} : { rescue }),
    },
    config,
  );
  const parameters = policy.network.read();
  learner.dispose();
  policy.dispose();
  return { outDirectory, steps, summary, parameters };
}

describe("trainGrpo", () => {
  it("grpo: trains every drawn group, within the rollout budget, and writes metrics and checkpoints", async () => {
    const { outDirectory, steps, summary } = await run("grpo", 1, 40);
    expect(summary.rollouts).toBe(40);
    expect(steps.length).toBe(5);
    for (const step of steps) {
      expect(step.promptsDrawn).toBe(2);
      expect(step.groupsTrained).toBe(2);
      expect(step.rolloutsBase).toBe(8);
    }
    const lines = (await readFile(join(outDirectory, "metrics.jsonl"), "utf8")).trim().split("\n");
    expect(lines.map((line) => JSON.parse(line).step)).toEqual([0, 1, 2, 3, 4]);
    expect((await stat(join(outDirectory, "checkpoints", "step-00002", "policy.json"))).isFile()).toBe(true);
    expect((await stat(join(outDirectory, "final", "optimizer.json"))).isFile()).toBe(true);
    const config = JSON.parse(await readFile(join(outDirectory, "config.json"), "utf8"));
    expect(config.method).toBe("grpo");
    expect(config.clip).toEqual({ low: 0.2, high: 0.2 });
  });

  it("dapo: keeps only groups with signal and counts every drawn rollout", async () => {
    const { steps, summary } = await run("dapo", 2, 64);
    expect(summary.rollouts).toBeLessThanOrEqual(64);
    let total = 0;
    for (const step of steps) {
      total += step.rolloutsBase;
      expect(step.rolloutsBase).toBe(step.promptsDrawn * 4);
      expect(step.trainedSignalShare === 1 || step.groupsTrained === 0).toBe(true);
      expect(step.groupsTrained).toBeLessThanOrEqual(2);
      expect(step.rolloutsTotal).toBe(total);
    }
  });

  it("is deterministic for a seed", async () => {
    const first = await run("grpo", 3, 24);
    const second = await run("grpo", 3, 24);
    expect(second.parameters).toEqual(first.parameters);
    expect(second.steps.map((step) => step.reward)).toEqual(first.steps.map((step) => step.reward));
  });

  it("hands all-fail groups to a rescuer and trains on the group it returns", async () => {
    let calls = 0;
    const rescue: GroupRescuer = async (group) => {
      calls++;
      expect(groupAllFailed(group)).toBe(true);
      const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed: 77 });
      const replacement = await collectGroup({
        task: group.task,
        benchmark,
        harness: { ...lookupTextHarness, id: "lookup-sibling" },
        policy,
        seeds: [11, 12, 13, 14],
      });
      policy.dispose();
      return { group: replacement, rollouts: 4, metrics: { attempts: 1 } };
    };
    const { steps } = await run("grpo", 4, 48, rescue);
    const rescued = steps.reduce((sum, step) => sum + step.rolloutsRescue, 0);
    expect(calls).toBeGreaterThan(0);
    expect(rescued).toBe(calls * 4);
    expect(steps.reduce((sum, step) => sum + (step.rescue.attempts ?? 0), 0)).toBe(calls);
    expect(steps.at(-1)?.rolloutsTotal).toBeLessThanOrEqual(48 + 4);
  });
});
