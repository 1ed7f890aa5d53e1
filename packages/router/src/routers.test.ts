import type { JudgeV1, JudgeVote } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { createCombinedRouter } from "./combined-router.js";
import { assertRouterConformance, checkRouterConformance, conformanceFixtures } from "./conformance.js";
import { explainDecision } from "./explain.js";
import { defaultProfileJudges } from "./profile-judges.js";
import { createProfileRouter } from "./profile-router.js";
import { rankOne } from "./rank-one.js";
import { aggregateVotes, createVotingRouter } from "./voting-router.js";

const fixtures = conformanceFixtures();
const input = {
  task: fixtures.task,
  failedGroup: fixtures.failedGroup,
  pool: fixtures.pool,
  profiles: fixtures.profiles,
  k: 2,
  seed: 1,
};

describe("routers pass the conformance kit", () => {
  it.each([
    ["profile", () => createProfileRouter()],
    ["vote-borda", () => createVotingRouter({ judges: defaultProfileJudges() })],
    ["vote-majority", () => createVotingRouter({ judges: defaultProfileJudges(), aggregation: "majority" })],
    [
      "vote-weights",
      () =>
        createVotingRouter({
          judges: defaultProfileJudges(),
          aggregation: "weights",
          weights: { "rescue-matrix": 2 },
        }),
    ],
    [
      "combined",
      () =>
        createCombinedRouter({
          parts: [
            { router: createProfileRouter(), weight: 2 },
            { router: createVotingRouter({ judges: defaultProfileJudges() }) },
          ],
        }),
    ],
  ])("%s", async (_, factory) => {
    const report = await assertRouterConformance(factory);
    expect(report.checks).toHaveLength(8);
  });

  it("the kit catches a router that ignores k and invents harnesses", async () => {
    const bad = {
      specificationVersion: "v1" as const,
      id: "bad",
      route: async () => ({
        ranking: [{ harnessId: "nope", score: Math.random(), reasons: [] }],
        selected: ["nope"],
      }),
    };
    const report = await checkRouterConformance(() => bad);
    expect(report.passed).toBe(false);
    const failed = report.checks.filter((check) => !check.passed).map((check) => check.name);
    expect(failed).toEqual(
      expect.arrayContaining([
        "returns only pool members, no repeats, top-k of its ranking",
        "deterministic for a seed",
        "handles an empty pool",
      ]),
    );
  });
});

describe("profile router", () => {
  it("ranks by expected rescue for the group's failure-mode mix", async () => {
    const decision = await createProfileRouter().route(input);
    expect(decision.selected).toEqual(["sibling-budget", "sibling-guidance"]);
    expect(decision.ranking[0]?.reasons[0]).toContain("budget-exhausted 67%");
  });

  it("uses category success with no failed group (Rank-1)", async () => {
    const decision = await createProfileRouter().route({ ...input, failedGroup: [], k: 1 });
    expect(decision.selected).toEqual(["sibling-guidance"]);
  });
});

describe("vote aggregation", () => {
  const members = ["a", "b", "c"];
  const vote = (judgeId: string, order: string[], scores = [3, 2, 1]): JudgeVote => ({
    judgeId,
    ranking: order.map((harnessId, index) => ({ harnessId, score: scores[index] ?? 0, reasons: [] })),
  });
  const votes = [
    vote("j1", ["a", "b", "c"]),
    vote("j2", ["a", "c", "b"]),
    vote("j3", ["b", "c", "a"], [10, 0, 0]),
  ];
  const order = (ranking: { harnessId: string; score: number }[]) =>
    [...ranking].sort((x, y) => y.score - x.score).map((entry) => entry.harnessId);

  it("Borda sums positions", () => {
    const ranking = aggregateVotes(votes, members, "borda");
    expect(Object.fromEntries(ranking.map((entry) => [entry.harnessId, entry.score]))).toEqual({
      a: 4,
      b: 3,
      c: 2,
    });
  });

  it("majority counts top choices", () => {
    expect(order(aggregateVotes(votes, members, "majority"))).toEqual(["a", "b", "c"]);
  });

  it("weights can overturn the majority", () => {
    expect(order(aggregateVotes(votes, members, "weights", { j3: 5 }))).toEqual(["b", "a", "c"]);
  });

  it("unranked members share the last place", () => {
    const partial = aggregateVotes([vote("j1", ["c"])], members, "borda");
    expect(Object.fromEntries(partial.map((entry) => [entry.harnessId, entry.score]))).toEqual({
      a: 1,
      b: 1,
      c: 2,
    });
  });
});

describe("voting router", () => {
  it("drops a judge that throws or votes outside the pool, and explains the decision", async () => {
    const throwing: JudgeV1 = {
      specificationVersion: "v1",
      id: "broken",
      vote: async () => Promise.reject(new Error("model offline")),
    };
    const outside: JudgeV1 = {
      specificationVersion: "v1",
      id: "outsider",
      vote: async () => ({ judgeId: "outsider", ranking: [{ harnessId: "ghost", score: 1, reasons: [] }] }),
    };
    const slow: JudgeV1 = { specificationVersion: "v1", id: "slow", vote: () => new Promise(() => {}) };
    const router = createVotingRouter({
      judges: [...defaultProfileJudges(), throwing, outside, slow],
      judgeTimeoutMs: 100,
    });
    const decision = await router.route(input);
    expect(decision.votes?.map((vote) => vote.judgeId)).toEqual(["rescue-matrix", "category", "direction"]);
    expect(decision.dropped).toEqual([
      { judgeId: "broken", reason: "model offline" },
      { judgeId: "outsider", reason: 'ranked "ghost", which is not in the pool' },
      { judgeId: "slow", reason: "timeout after 100 ms" },
    ]);
    expect(decision.selected[0]).toBe("sibling-budget");
    const text = explainDecision(decision);
    expect(text).toContain("judge rescue-matrix:");
    expect(text).toContain("judge slow: dropped (timeout after 100 ms)");
    expect(text).toContain("selected: sibling-budget");
  });
});

describe("Rank-1", () => {
  it("picks the router's top sibling, or the base when the base does at least as well on the category", async () => {
    const router = createProfileRouter();
    const task = { ...fixtures.task, category: "dataset-annotation" };
    const observer = { observableCategory: () => "select" };
    const choice = await rankOne({
      router,
      benchmark: observer,
      task,
      pool: fixtures.pool,
      profiles: fixtures.profiles,
      seed: 1,
    });
    expect(choice.harnessId).toBe("sibling-guidance");
    const strongBase = {
      ...fixtures.profiles,
      profiles: {
        ...fixtures.profiles.profiles,
        base: {
          ...(fixtures.profiles.profiles.base as NonNullable<(typeof fixtures.profiles.profiles)["base"]>),
          perCategory: { select: 0.9 },
        },
      },
    };
    const kept = await rankOne({
      router,
      benchmark: observer,
      task,
      pool: fixtures.pool,
      profiles: strongBase,
      seed: 1,
    });
    expect(kept.harnessId).toBe("base");
    expect(kept.reason).toContain("base succeeds 90% on select");
    const seen: unknown[] = [];
    const spy = {
      ...router,
      route: (input: Parameters<typeof router.route>[0]) => {
        seen.push(input);
        return router.route(input);
      },
    };
    const blind = await rankOne({
      router: spy,
      benchmark: {},
      task,
      pool: fixtures.pool,
      profiles: strongBase,
      seed: 1,
    });
    expect(blind.reason).not.toContain("90%");
    expect(JSON.stringify(seen)).not.toContain("dataset-annotation");
  });
});
