import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runEpisode } from "@hs/harness";
import { createLookupBenchmark, lookupTextHarness } from "@hs/harness/test-environments";
import { createEmbeddedPolicy, type EmbeddedPolicy, tf } from "@hs/policy-embedded";
import { tokenLoss } from "@hs/rescue-grpo";
import type { TrainingBatch, Trajectory } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { createLookupGrammar } from "./__fixtures__/lookup-grammar.js";
import { EmbeddedGrpoLearner } from "./embedded-learner.js";

const benchmark = createLookupBenchmark();
const { tasks } = await benchmark.loadTasks({});
const directories: string[] = [];
afterAll(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

async function rollouts(policy: EmbeddedPolicy, count: number): Promise<Trajectory[]> {
  const trajectories: Trajectory[] = [];
  for (let seed = 0; seed < count; seed++) {
    const task = tasks[seed % tasks.length];
    if (task === undefined) throw new Error("no task");
    trajectories.push(await runEpisode({ task, benchmark, harness: lookupTextHarness, policy, seed }));
  }
  return trajectories;
}

function batchOf(
  trajectories: Trajectory[],
  advantage: (trajectory: Trajectory, index: number) => number,
): TrainingBatch {
  return {
    samples: trajectories.map((trajectory, index) => ({
      trajectoryId: trajectory.id,
      harnessId: trajectory.harnessId,
      steps: trajectory.steps.map((step) => ({ view: step.view, action: step.action })),
      advantage: advantage(trajectory, index),
    })),
  };
}

describe("EmbeddedGrpoLearner", () => {
  it("recomputes exactly the sampling log-probabilities before its first update (ratio 1)", async () => {
    const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed: 1 });
    const trajectories = await rollouts(policy, 12);
    const learner = new EmbeddedGrpoLearner({ policy });
    const replayed = learner.replay(batchOf(trajectories, () => 1));
    expect(replayed.oldLogprobs.length).toBeGreaterThan(12);
    const current = learner.currentLogprobs(replayed);
    expect(current).toEqual(replayed.oldLogprobs.map((value) => Math.fround(value)));
    const stats = learner.statistics(replayed);
    expect(stats.ratioMaxDeviation).toBe(0);
    expect(stats.ratioMean).toBe(1);
    learner.dispose();
    policy.dispose();
  });

  it("computes with tfjs the same loss as the scalar formulas, with clipping and KL", async () => {
    const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed: 2 });
    const trajectories = await rollouts(policy, 8);
    const learner = new EmbeddedGrpoLearner({
      policy,
      klCoefficient: 0.05,
      epochs: 3,
      learningRate: 0.2,
      aggregation: "seq-mean-token-mean",
    });
    const batch = batchOf(trajectories, (trajectory, index) =>
      trajectory.success ? 1 : index % 2 === 0 ? -1 : 0.5,
    );
    await learner.update(batch);
    const replayed = learner.replay(batch);
    const stats = learner.statistics(replayed);
    expect(stats.ratioMaxDeviation).toBeGreaterThan(0.05);
    expect(stats.kl).toBeGreaterThan(0);
    const current = learner.currentLogprobs(replayed);
    let expected = 0;
    current.forEach((logprob, index) => {
      const loss = tokenLoss(
        logprob,
        replayed.oldLogprobs[index] ?? 0,
        replayed.advantages[index] ?? 0,
        learner.clip,
      );
      expected += loss.policyLoss * (replayed.weights[index] ?? 0);
    });
    const tensorLoss = tf.tidy(() => learner.loss(replayed, undefined).dataSync()[0]);
    expect(tensorLoss).toBeCloseTo(expected, 5);
    learner.dispose();
    policy.dispose();
  });

  it("raises the probability of actions with a positive advantage and lowers the others", async () => {
    const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed: 3 });
    const trajectories = await rollouts(policy, 16);
    const first = trajectories[0] as Trajectory;
    const learner = new EmbeddedGrpoLearner({ policy, learningRate: 0.05 });
    const good = batchOf([first], () => 1);
    const bad = batchOf([trajectories[1] as Trajectory], () => -1);
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    const goodBefore = sum(learner.currentLogprobs(learner.replay(good)));
    const badBefore = sum(learner.currentLogprobs(learner.replay(bad)));
    for (let index = 0; index < 5; index++)
      await learner.update({ samples: [...good.samples, ...bad.samples] });
    expect(sum(learner.currentLogprobs(learner.replay(good)))).toBeGreaterThan(goodBefore);
    expect(sum(learner.currentLogprobs(learner.replay(bad)))).toBeLessThan(badBefore);
    expect(learner.updates).toBe(5);
    expect(policy.version).toBe("seed3-u5");
    learner.dispose();
    policy.dispose();
  });

  it("moves only the linear term when trainable is linear", async () => {
    const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed: 5 });
    const trajectories = await rollouts(policy, 8);
    const learner = new EmbeddedGrpoLearner({ policy, learningRate: 0.05, trainable: "linear" });
    const before = policy.network.read();
    await learner.update(batchOf(trajectories, (_, index) => (index % 2 === 0 ? 1 : -1)));
    const after = policy.network.read();
    for (const name of Object.keys(before)) {
      if (name === "linear.kernel") expect(after[name]).not.toEqual(before[name]);
      else expect(after[name]).toEqual(before[name]);
    }
    learner.dispose();
    policy.dispose();
  });

  it("takes smaller first steps with a larger Adam epsilon", async () => {
    const largestChange = async (adamEpsilon: number) => {
      const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed: 6 });
      const trajectories = await rollouts(policy, 8);
      const learner = new EmbeddedGrpoLearner({ policy, learningRate: 0.05, adamEpsilon });
      const before = policy.network.read()["linear.kernel"]?.values ?? [];
      await learner.update(batchOf(trajectories, (_, index) => (index % 2 === 0 ? 0.01 : -0.01)));
      const after = policy.network.read()["linear.kernel"]?.values ?? [];
      learner.dispose();
      policy.dispose();
      return Math.max(...after.map((value, index) => Math.abs(value - (before[index] ?? 0))));
    };
    const plain = await largestChange(1e-8);
    expect(plain).toBeGreaterThan(0.04);
    expect(await largestChange(1e-3)).toBeLessThan(plain / 2);
  });

  it("leaves the weights alone when every advantage is zero and there is no KL", async () => {
    const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed: 4 });
    const trajectories = await rollouts(policy, 6);
    const learner = new EmbeddedGrpoLearner({ policy });
    const before = policy.network.read();
    const stats = await learner.update(batchOf(trajectories, () => 0));
    expect(policy.network.read()).toEqual(before);
    expect(stats.gradNorm).toBe(0);
    learner.dispose();
    policy.dispose();
  });

  it("saves and restores parameters and optimiser state: later updates match", async () => {
    const directory = await mkdtemp(join(tmpdir(), "hs-learner-"));
    directories.push(directory);
    const grammar = createLookupGrammar();
    const policy = await createEmbeddedPolicy({ grammar, seed: 5 });
    const trajectories = await rollouts(policy, 8);
    const batch = batchOf(trajectories, (_, index) => (index % 2 === 0 ? 1 : -1));
    const learner = new EmbeddedGrpoLearner({ policy, learningRate: 0.05 });
    await learner.update(batch);
    await learner.save(directory);
    const copy = await createEmbeddedPolicy({ grammar, seed: 99 });
    const copyLearner = new EmbeddedGrpoLearner({ policy: copy, learningRate: 0.05 });
    await copyLearner.load(directory);
    expect(copyLearner.updates).toBe(1);
    await learner.update(batch);
    await copyLearner.update(batch);
    const expected = policy.network.read();
    const actual = copy.network.read();
    for (const name of Object.keys(expected)) {
      const left = expected[name]?.values ?? [];
      const right = actual[name]?.values ?? [];
      for (const [index, value] of right.entries()) expect(value).toBeCloseTo(left[index] ?? Number.NaN, 5);
    }
    for (const item of [learner, copyLearner]) item.dispose();
    policy.dispose();
    copy.dispose();
  });

  it("does not leak tensors over many updates", async () => {
    const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed: 6 });
    const trajectories = await rollouts(policy, 8);
    const learner = new EmbeddedGrpoLearner({ policy, klCoefficient: 0.1, epochs: 2 });
    const batch = batchOf(trajectories, (_, index) => (index % 3) - 1);
    await learner.update(batch);
    const before = tf.memory().numTensors;
    for (let index = 0; index < 50; index++) await learner.update(batch);
    expect(tf.memory().numTensors).toBe(before);
    learner.dispose();
    policy.dispose();
  });
});
