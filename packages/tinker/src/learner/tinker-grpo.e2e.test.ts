import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHarnessConfig } from "@hs/harness";
import {
  collectGroup,
  defaultTrainerConfig,
  type GroupRescuer,
  type StepMetrics,
  trainGrpo,
} from "@hs/rescue-grpo";
import { afterAll, describe, expect, it } from "vitest";
import { meanReward, startTinyStack } from "../__fixtures__/tiny-stack.js";
import { forwardBackwardRequestSchema, sampleRequestSchema } from "../protocol/requests.js";
import { capitalsHarness } from "../server/capitals-benchmark.js";
import { testServerModes } from "../server/test-server.js";

const directories: string[] = [];
afterAll(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

function config(budget: number) {
  return {
    ...defaultTrainerConfig("grpo", 1),
    groupSize: 8,
    promptsPerStep: 4,
    rolloutBudget: budget,
    checkpointEvery: 2,
  };
}

describe("GRPO through the Tinker API (real HTTP, test server)", () => {
  it.each(testServerModes)(
    "raises the reward of the tiny model, with sampler weights refreshed after every update (%s test server)",
    async (mode) => {
      const stack = await startTinyStack({ mode });
      const outDirectory = await mkdtemp(join(tmpdir(), "hs-tinker-grpo-"));
      directories.push(outDirectory);
      try {
        const { tasks } = await stack.benchmark.loadTasks({ split: "train" });
        const before = await meanReward(stack.benchmark, stack.policy, tasks, 16);
        const steps: StepMetrics[] = [];
        const summary = await trainGrpo(
          { ...stack, tasks, outDirectory, onStep: (metrics) => steps.push(metrics) },
          config(8 * 4 * 12),
        );
        const after = await meanReward(stack.benchmark, stack.policy, tasks, 16);
        expect(summary.steps).toBe(12);
        expect(stack.learner.updates).toBe(12);
        expect(stack.policy.version).toBe("tinker-12");
        expect(stack.policy.samplerPath).toMatch(
          /^tinker:\/\/model_\d+\/sampler_weights\/capitals-sampler-000012$/,
        );
        expect(before).toBeLessThan(0.25);
        expect(after).toBeGreaterThan(before + 0.4);
        expect(stack.server?.state.applied.optim_step).toBe(
          steps.filter((step) => step.groupsTrained > 0).length,
        );
        const checkpoint = JSON.parse(
          await readFile(join(summary.finalCheckpoint, "tinker-checkpoint.json"), "utf8"),
        );
        expect(checkpoint.trainingPath).toMatch(/^tinker:\/\/model_\d+\/weights\/capitals-state-000012$/);
      } finally {
        await stack.close();
      }
    },
    90_000,
  );

  it("never sends gold to the sampler: no prompt holds the capital of its task", async () => {
    const stack = await startTinyStack();
    const outDirectory = await mkdtemp(join(tmpdir(), "hs-tinker-gold-"));
    directories.push(outDirectory);
    try {
      const { tasks } = await stack.benchmark.loadTasks({ split: "train" });
      await trainGrpo({ ...stack, tasks, outDirectory }, config(8 * 4 * 2));
      const capitals = ["paris", "lima", "tokyo", "nairobi", "santiago", "cairo"];
      const prompts = (stack.server?.received ?? [])
        .filter((request) => request.endpoint === "/asample")
        .map((request) =>
          stack.renderer.decode(sampleRequestSchema.parse(request.body).prompt.chunks[0]?.tokens ?? [], true),
        );
      expect(prompts.length).toBeGreaterThanOrEqual(64);
      for (const prompt of prompts) {
        expect(prompt).toMatch(/capital (france|peru|japan|kenya)/);
        for (const capital of capitals) expect(prompt).not.toContain(capital);
      }
    } finally {
      await stack.close();
    }
  }, 60_000);

  it("resumes a run from its checkpoint on a fresh learner and policy, nothing counted twice", async () => {
    const first = await startTinyStack();
    const outDirectory = await mkdtemp(join(tmpdir(), "hs-tinker-resume-"));
    directories.push(outDirectory);
    const url = first.server?.url ?? "";
    try {
      const { tasks } = await first.benchmark.loadTasks({ split: "train" });
      const crash = new AbortController();
      const interrupted = trainGrpo(
        {
          ...first,
          tasks,
          outDirectory,
          signal: crash.signal,
          onStep: (metrics) => {
            if (metrics.step === 3) crash.abort();
          },
        },
        config(8 * 4 * 6),
      );
      await expect(interrupted).rejects.toThrow(/cancelled/);
      const resumed = await startTinyStack({ url });
      const steps: StepMetrics[] = [];
      try {
        const summary = await trainGrpo(
          { ...resumed, tasks, outDirectory, onStep: (metrics) => steps.push(metrics) },
          config(8 * 4 * 6),
        );
        expect(steps.map((step) => step.step)).toEqual([4, 5]);
        expect(first.server?.state.applied.load_weights).toBe(1);
        expect(summary.rollouts).toBe(8 * 4 * 6);
        expect(resumed.learner.updates).toBe(6);
        expect(resumed.policy.version).toBe("tinker-6");
        const metrics = (await readFile(join(outDirectory, "metrics.jsonl"), "utf8")).trim().split("\n");
        expect(metrics).toHaveLength(6);
      } finally {
        await resumed.client.close();
      }
    } finally {
      await first.close();
    }
  }, 60_000);

  it("trains rescued groups on the sibling's own view tokens (GRPO with rescue)", async () => {
    const stack = await startTinyStack();
    const outDirectory = await mkdtemp(join(tmpdir(), "hs-tinker-rescue-"));
    directories.push(outDirectory);
    const sibling = createHarnessConfig({
      ...capitalsHarness,
      id: "capitals-system",
      prompt: { ...capitalsHarness.prompt, system: "capital" },
    });
    let rescued = 0;
    const rescue: GroupRescuer = async (group, context) => {
      const seeds = group.trajectories.map((_, index) => 7000 + context.step * 100 + index);
      const attempt = await collectGroup({
        task: group.task,
        benchmark: stack.benchmark,
        harness: sibling,
        policy: stack.policy,
        seeds,
      });
      const solved = attempt.trajectories.some((trajectory) => trajectory.success);
      if (solved) rescued++;
      return { group: solved ? attempt : null, rollouts: seeds.length, trajectories: attempt.trajectories };
    };
    try {
      const { tasks } = await stack.benchmark.loadTasks({ split: "train" });
      const steps: StepMetrics[] = [];
      await trainGrpo(
        { ...stack, tasks, outDirectory, rescue, onStep: (metrics) => steps.push(metrics) },
        { ...config(8 * 4 * 6), method: "harness-s" },
      );
      expect(steps.reduce((sum, step) => sum + step.rolloutsRescue, 0)).toBeGreaterThan(0);
      expect(rescued).toBeGreaterThan(0);
      const trained = (stack.server?.received ?? [])
        .filter((request) => request.endpoint === "/forward_backward")
        .flatMap((request) => forwardBackwardRequestSchema.parse(request.body).forward_backward_input.data);
      const systemRole = stack.renderer.tokenizer.token_to_id("system");
      const siblingDatums = trained.filter((datum) => datum.model_input.chunks[0]?.tokens[1] === systemRole);
      expect(siblingDatums.length).toBeGreaterThanOrEqual(8 * rescued);
      for (const datum of siblingDatums) {
        expect(stack.renderer.decode(datum.model_input.chunks[0]?.tokens.slice(0, 8) ?? [], true)).toMatch(
          /^<\|im_start\|> system capital <\|im_end\|> <\|im_start\|> user capital \w+/,
        );
      }
    } finally {
      await stack.close();
    }
  }, 90_000);
});
