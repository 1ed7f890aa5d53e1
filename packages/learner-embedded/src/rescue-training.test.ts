import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHarnessConfig, createPool, createSibling } from "@hs/harness";
import { createLookupBenchmark, createLookupGrammar, lookupTextHarness } from "@hs/harness/test-environments";
import { createEmbeddedPolicy } from "@hs/policy-embedded";
import {
  createRescuer,
  defaultTrainerConfig,
  type GroupRescuer,
  groupAllFailed,
  type SamplingMethod,
  type StepMetrics,
  trainGrpo,
} from "@hs/rescue-grpo";
import type { Pool, RouterV1 } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { EmbeddedGrpoLearner } from "./embedded-learner.js";

const benchmark = createLookupBenchmark();
const { tasks } = await benchmark.loadTasks({});
const directories: string[] = [];
afterAll(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

const longer = createHarnessConfig({
  ...lookupTextHarness,
  id: "longer-budget",
  budget: { maxSteps: 10, maxOutputChars: null },
});
const pool: Pool = createPool({
  benchmark: "lookup",
  createdAt: "2026-11-29T00:00:00.000Z",
  policyVersion: "seed0-u0",
  base: lookupTextHarness,
  siblings: [
    createSibling(longer, {
      direction: "budget",
      lineage: ["base"],
      validation: { failuresTried: 1, rescued: 1, successesTried: 1, regressions: 0 },
    }),
  ],
});
const firstSibling: RouterV1 = {
  specificationVersion: "v1",
  id: "first",
  async route(input) {
    const ranking = input.pool.siblings.map((sibling, index) => ({
      harnessId: sibling.id,
      score: -index,
      reasons: [],
    }));
    return { ranking, selected: ranking.slice(0, input.k).map((entry) => entry.harnessId) };
  },
};

async function train(
  method: SamplingMethod,
  rescueBudget: number,
  budget: number,
  spy?: (group: Parameters<GroupRescuer>[0]) => void,
) {
  const outDirectory = await mkdtemp(join(tmpdir(), "hs-rescue-train-"));
  directories.push(outDirectory);
  const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed: 9 });
  const learner = new EmbeddedGrpoLearner({ policy, learningRate: 0.05 });
  const config = {
    ...defaultTrainerConfig(method, 9),
    groupSize: 4,
    promptsPerStep: 2,
    rolloutBudget: budget,
    rescue: { k: 1, budget: rescueBudget, keepBaseNegative: true, reanchorEvery: 0 },
  };
  const rescuer = createRescuer({
    benchmark,
    pool,
    policy,
    selection: "router",
    router: firstSibling,
    k: 1,
    rescueBudget,
    keepBaseNegative: true,
    seed: 9,
    profiles: () => null,
  });
  const rescue: GroupRescuer = async (group, context) => {
    spy?.(group);
    return rescuer(group, context);
  };
  const steps: StepMetrics[] = [];
  await trainGrpo(
    {
      benchmark,
      harness: lookupTextHarness,
      tasks,
      policy,
      learner,
      outDirectory,
      onStep: (row) => steps.push(row),
      ...(method === "grpo" ? {} : { rescue }),
    },
    config,
  );
  const parameters = policy.network.read();
  learner.dispose();
  policy.dispose();
  return { steps, parameters };
}

const withoutTiming = (steps: StepMetrics[]) => steps.map(({ wallMs: _, rescue: __, ...rest }) => rest);

describe("rescue training", () => {
  it("with rescue off, harness-s takes exactly the steps of grpo for the same seed", async () => {
    const grpo = await train("grpo", 0, 48);
    const harnessS = await train("harness-s", 0, 48);
    expect(withoutTiming(harnessS.steps)).toEqual(withoutTiming(grpo.steps));
    expect(harnessS.parameters).toEqual(grpo.parameters);
    expect(harnessS.steps.every((step) => step.rolloutsRescue === 0)).toBe(true);
  });

  it("rescues only all-fail groups, within the rollout budget, counting every rescue rollout", async () => {
    const handed: boolean[] = [];
    const { steps } = await train("harness-s", 6, 80, (group) => handed.push(groupAllFailed(group)));
    expect(handed.length).toBeGreaterThan(0);
    expect(handed.every(Boolean)).toBe(true);
    const last = steps.at(-1)!;
    expect(last.rolloutsTotal).toBeLessThanOrEqual(80);
    expect(steps.reduce((sum, step) => sum + step.rolloutsBase + step.rolloutsRescue, 0)).toBe(
      last.rolloutsTotal,
    );
    expect(steps.reduce((sum, step) => sum + (step.rescue.attempts ?? 0), 0)).toBe(handed.length);
  });

  it("refuses a rescue method without a rescuer", async () => {
    const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed: 1 });
    const learner = new EmbeddedGrpoLearner({ policy });
    const outDirectory = await mkdtemp(join(tmpdir(), "hs-rescue-train-"));
    directories.push(outDirectory);
    await expect(
      trainGrpo(
        { benchmark, harness: lookupTextHarness, tasks, policy, learner, outDirectory },
        defaultTrainerConfig("all-rescue", 1),
      ),
    ).rejects.toThrow(/needs a rescuer/);
    learner.dispose();
    policy.dispose();
  });
});
