import { createHarnessConfig, createPool, createSibling, runEpisode } from "@hs/harness";
import {
  createLookupBenchmark,
  createScriptedPolicy,
  lookupTextHarness,
} from "@hs/harness/test-environments";
import type { Pool, RouterV1 } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { groupSamples, type RolloutGroup } from "./groups.js";
import { createRescuer, type RescuerOptions, shareBudget } from "./rescue.js";

const benchmark = createLookupBenchmark();
const { tasks } = await benchmark.loadTasks({});
const france = tasks[0]!;

function sibling(id: string, hint: string, direction: "guidance" | "budget") {
  return createSibling(
    createHarnessConfig({ ...lookupTextHarness, id, prompt: { ...lookupTextHarness.prompt, hints: [hint] } }),
    {
      direction,
      lineage: ["base"],
      validation: { failuresTried: 0, rescued: 0, successesTried: 0, regressions: 0 },
    },
  );
}

const pool: Pool = createPool({
  benchmark: "lookup",
  createdAt: "2026-11-29T00:00:00.000Z",
  policyVersion: "0",
  base: lookupTextHarness,
  siblings: [
    sibling("useless", "Be brief.", "budget"),
    sibling("helpful", "The capital of France is Paris.", "guidance"),
  ],
});

/** Answers Paris only when the hint says so: the harness decides whether it succeeds. */
const hintReader = () =>
  createScriptedPolicy([
    (view) => (JSON.stringify(view.messages).includes("is Paris") ? "answer: Paris" : "answer: Lyon"),
  ]);

const fixedRouter = (order: string[]): RouterV1 => ({
  specificationVersion: "v1",
  id: "fixed",
  async route(input) {
    expect(input.failedGroup.every((trajectory) => !trajectory.success)).toBe(true);
    return {
      ranking: order.map((harnessId, index) => ({ harnessId, score: -index, reasons: [] })),
      selected: order.slice(0, input.k),
    };
  },
});

let draws = 0;
async function failedGroup(): Promise<RolloutGroup> {
  const policy = hintReader();
  draws += 1;
  const trajectories = await Promise.all(
    [1, 2, 3]
      .map((rollout) => 100 * draws + rollout)
      .map((seed) => runEpisode({ task: france, benchmark, harness: lookupTextHarness, policy, seed })),
  );
  expect(trajectories.every((trajectory) => !trajectory.success)).toBe(true);
  return { task: france, harnessId: lookupTextHarness.id, trajectories };
}

describe("createRescuer", () => {
  it("shares the rescue budget over the chosen siblings", () => {
    expect(shareBudget(5, 2)).toEqual([3, 2]);
    expect(shareBudget(2, 3)).toEqual([1, 1, 0]);
    expect(shareBudget(4, 0)).toEqual([]);
  });

  /** The helpful sibling first, then the useless one, 5 rollouts shared between them. */
  const helpfulFirst = (extra: Partial<RescuerOptions> = {}) =>
    createRescuer({
      benchmark,
      pool,
      policy: hintReader(),
      selection: "router",
      router: fixedRouter(["helpful", "useless"]),
      k: 2,
      rescueBudget: 5,
      keepBaseNegative: true,
      seed: 1,
      profiles: () => null,
      ...extra,
    });

  it("replaces an all-fail group with sibling rollouts trained on the sibling's view", async () => {
    const rescuer = helpfulFirst();
    const group = await failedGroup();
    const outcome = await rescuer(group, { step: 0, rolloutsLeft: 100 });
    expect(outcome.rollouts).toBe(5);
    expect(outcome.metrics).toMatchObject({
      attempts: 1,
      successes: 1,
      routerQueries: 1,
      routerHits: 1,
      "sibling:helpful:rollouts": 3,
      "sibling:helpful:successes": 3,
      "sibling:useless:rollouts": 2,
      "sibling:useless:successes": 0,
    });
    const replacement = outcome.group!;
    expect(replacement.trajectories.map((trajectory) => [trajectory.harnessId, trajectory.reward])).toEqual([
      [lookupTextHarness.id, 0],
      ["helpful", 1],
      ["helpful", 1],
      ["helpful", 1],
      ["useless", 0],
      ["useless", 0],
    ]);
    const samples = groupSamples(replacement, "dr-grpo");
    expect(samples.map((sample) => sample.advantage)).toEqual([-0.5, 0.5, 0.5, 0.5, -0.5, -0.5]);
    expect(JSON.stringify(samples[1]?.steps[0]?.view)).toContain("The capital of France is Paris.");
    expect(JSON.stringify(samples[0]?.steps[0]?.view)).not.toContain("is Paris");
  });

  it("with base negatives keeps every base failure beside the rescue's successes only", async () => {
    const rescuer = helpfulFirst({ negatives: "base" });
    const group = await failedGroup();
    const outcome = await rescuer(group, { step: 0, rolloutsLeft: 100 });
    expect(outcome.rollouts).toBe(5);
    expect(outcome.trajectories).toHaveLength(5);
    const replacement = outcome.group!;
    expect(replacement.trajectories.map((trajectory) => [trajectory.harnessId, trajectory.reward])).toEqual([
      [lookupTextHarness.id, 0],
      [lookupTextHarness.id, 0],
      [lookupTextHarness.id, 0],
      ["helpful", 1],
      ["helpful", 1],
      ["helpful", 1],
    ]);
    expect(replacement.trajectories.slice(0, 3).map((trajectory) => trajectory.seed)).toEqual(
      group.trajectories.map((trajectory) => trajectory.seed),
    );
    const samples = groupSamples(replacement, "dr-grpo");
    expect(samples.map((sample) => sample.advantage)).toEqual([-0.5, -0.5, -0.5, 0.5, 0.5, 0.5]);
  });

  it("never spends more than the rollouts left, and records a router miss", async () => {
    const rescuer = createRescuer({
      benchmark,
      pool,
      policy: hintReader(),
      selection: "router",
      router: fixedRouter(["useless", "helpful"]),
      k: 2,
      rescueBudget: 8,
      keepBaseNegative: false,
      seed: 1,
      profiles: () => null,
    });
    const outcome = await rescuer(await failedGroup(), { step: 0, rolloutsLeft: 3 });
    expect(outcome.rollouts).toBe(3);
    expect(outcome.metrics?.routerHits).toBeUndefined();
    expect(outcome.metrics?.["sibling:useless:rollouts"]).toBe(2);
    expect(outcome.group?.trajectories).toHaveLength(3);
    const none = await rescuer(await failedGroup(), { step: 0, rolloutsLeft: 0 });
    expect(none).toEqual({ group: null, rollouts: 0, metrics: { attempts: 0, successes: 0 } });
  });

  it("keeps the failed group when no sibling rescues it", async () => {
    const rescuer = createRescuer({
      benchmark,
      pool,
      policy: hintReader(),
      selection: "single",
      singleSiblingId: "useless",
      k: 1,
      rescueBudget: 4,
      keepBaseNegative: true,
      seed: 1,
      profiles: () => null,
    });
    const outcome = await rescuer(await failedGroup(), { step: 0, rolloutsLeft: 10 });
    expect(outcome.group).toBeNull();
    expect(outcome.rollouts).toBe(4);
    expect(outcome.metrics).toMatchObject({ attempts: 1, successes: 0 });
  });

  it("picks random siblings deterministically for a seed, and all siblings for all-rescue", async () => {
    const picks = async (seed: number) => {
      draws = 0;
      const rescuer = createRescuer({
        benchmark,
        pool,
        policy: hintReader(),
        selection: "random",
        k: 1,
        rescueBudget: 1,
        keepBaseNegative: false,
        seed,
        profiles: () => null,
      });
      const result: string[] = [];
      for (let index = 0; index < 6; index++) {
        const outcome = await rescuer(await failedGroup(), { step: index, rolloutsLeft: 10 });
        result.push(Object.keys(outcome.metrics ?? {}).find((key) => key.endsWith(":rollouts")) ?? "");
      }
      return result;
    };
    const first = await picks(3);
    expect(await picks(3)).toEqual(first);
    expect(new Set(first).size).toBe(2);
    const all = createRescuer({
      benchmark,
      pool,
      policy: hintReader(),
      selection: "all",
      k: 1,
      rescueBudget: 4,
      keepBaseNegative: false,
      seed: 1,
      profiles: () => null,
    });
    const outcome = await all(await failedGroup(), { step: 0, rolloutsLeft: 10 });
    expect(Object.keys(outcome.metrics ?? {}).filter((key) => key.endsWith(":rollouts"))).toHaveLength(2);
  });

  it("rejects a router selection without a router and an unknown single sibling", () => {
    const base = {
      benchmark,
      pool,
      policy: hintReader(),
      k: 1,
      rescueBudget: 1,
      keepBaseNegative: false,
      seed: 1,
      profiles: () => null,
    };
    expect(() => createRescuer({ ...base, selection: "router" })).toThrow(/router selection needs a router/);
    expect(() => createRescuer({ ...base, selection: "single", singleSiblingId: "nope" })).toThrow(
      /"nope" is not in the pool/,
    );
  });

  it("refuses a router decision that selects an id the pool lacks, naming the router and the id", async () => {
    const rescuer = createRescuer({
      benchmark,
      pool,
      policy: hintReader(),
      selection: "router",
      router: fixedRouter(["no-such-sibling", "helpful"]),
      k: 2,
      rescueBudget: 2,
      keepBaseNegative: false,
      seed: 1,
      profiles: () => null,
    });
    await expect(rescuer(await failedGroup(), { step: 0, rolloutsLeft: 10 })).rejects.toThrow(
      /router fixed: selected "no-such-sibling", which is not a sibling of the pool/,
    );
  });
});
