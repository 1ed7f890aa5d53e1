import { createHarnessConfig, createPool, createSibling, routerDecisionProblems } from "@hs/harness";
import {
  type FixDirection,
  type HarnessProfile,
  type ObservedTask,
  type ObservedTrajectory,
  type Pool,
  type ProfileSet,
  type RouterDecision,
  type RouterV1,
  type RoutingInput,
  routerDecisionSchema,
} from "@hs/spec";

/** The synthetic inputs the conformance kit routes. */
export interface ConformanceFixtures {
  /** A pool of four siblings from four directions. */
  pool: Pool;
  /** Profiles of every harness of the pool. */
  profiles: ProfileSet;
  /** The task of the failed group, as routers see it (an observable category `select`). */
  task: ObservedTask;
  /** A failed group of three labelled, observed trajectories. */
  failedGroup: ObservedTrajectory[];
}

function failedTrajectory(task: ObservedTask, seed: number, modes: string[]): ObservedTrajectory {
  return {
    schemaVersion: 1,
    id: `conformance-${seed}`,
    taskId: task.id,
    benchmark: task.benchmark,
    split: task.split,
    ...(task.category === undefined ? {} : { category: task.category }),
    harnessId: "base",
    harnessHash: "sha256:0000000000000000",
    policyId: "conformance",
    policyVersion: "0",
    seed,
    steps: [],
    endReason: "budget",
    reward: 0,
    success: false,
    failureModes: modes.map((mode) => ({ mode, evidence: `synthetic ${mode}`, source: "rules" })),
    events: [],
    timings: { startedAt: "2025-01-01T00:00:00.000Z", wallMs: 0, policyMs: 0, environmentMs: 0 },
  };
}

function profile(
  harnessId: string,
  successRate: number,
  rescue: Record<string, [number, number]>,
): HarnessProfile {
  return {
    harnessId,
    policyVersion: "conformance@0",
    episodes: 20,
    successRate,
    perCategory: { select: successRate },
    rescueByMode: Object.fromEntries(
      Object.entries(rescue).map(([mode, [rescued, attempts]]) => [mode, { rescued, attempts }]),
    ),
    behaviour: { meanSteps: 4 },
  };
}

/** Synthetic inputs for router tests: a pool of four siblings, their profiles, a failed group. */
export function conformanceFixtures(): ConformanceFixtures {
  const base = createHarnessConfig({ id: "base" });
  const directions: [string, FixDirection, Partial<Parameters<typeof createHarnessConfig>[0]>][] = [
    ["sibling-budget", "budget", { budget: { maxSteps: 30, maxOutputChars: null } }],
    ["sibling-guidance", "guidance", { prompt: { ...base.prompt, hints: ["Look before you answer."] } }],
    [
      "sibling-verification",
      "verification",
      { verification: { enabled: true, prompt: "Sure about {answer}?", maxChecks: 1 } },
    ],
    ["sibling-context", "context", { context: { ...base.context, truncateObservationChars: 4000 } }],
  ];
  const siblings = directions.map(([id, direction, change]) =>
    createSibling(createHarnessConfig({ ...base, ...change, id, description: `${direction} sibling` }), {
      direction,
      lineage: ["base"],
      validation: { failuresTried: 4, rescued: 2, successesTried: 4, regressions: 0 },
    }),
  );
  const pool: Pool = createPool({
    benchmark: "conformance",
    createdAt: "2025-01-01T00:00:00.000Z",
    policyVersion: "conformance@0",
    base,
    siblings,
  });
  const profiles: Record<string, HarnessProfile> = {
    base: profile("base", 0.3, {}),
    "sibling-budget": profile("sibling-budget", 0.35, {
      "budget-exhausted": [6, 8],
      "premature-answer": [0, 5],
    }),
    "sibling-guidance": profile("sibling-guidance", 0.4, {
      "budget-exhausted": [1, 8],
      "premature-answer": [3, 5],
    }),
    "sibling-verification": profile("sibling-verification", 0.33, {
      "budget-exhausted": [0, 8],
      "premature-answer": [4, 5],
    }),
    "sibling-context": profile("sibling-context", 0.3, {
      "budget-exhausted": [1, 8],
      "premature-answer": [1, 5],
    }),
  };
  const task: ObservedTask = {
    id: "conformance/1",
    benchmark: "conformance",
    split: "train",
    category: "select",
    instruction: "Which rows?",
    metadata: {},
  };
  return {
    pool,
    profiles: { schemaVersion: 1, profiles, history: [{ step: 0, profiles }] },
    task,
    failedGroup: [
      failedTrajectory(task, 1, ["budget-exhausted"]),
      failedTrajectory(task, 2, ["budget-exhausted"]),
      failedTrajectory(task, 3, ["premature-answer"]),
    ],
  };
}

/** One check of the kit. */
export interface ConformanceCheck {
  /** What is checked. */
  name: string;
  /** Whether it held. */
  passed: boolean;
  /** What went wrong (empty when it passed). */
  detail: string;
}

/** The kit's result. */
export interface ConformanceReport {
  /** Router id. */
  routerId: string;
  /** Whether every check passed. */
  passed: boolean;
  /** Every check. */
  checks: ConformanceCheck[];
}

function problemsOf(decision: RouterDecision, input: RoutingInput): string[] {
  const problems: string[] = [];
  const parsed = routerDecisionSchema.safeParse(decision);
  if (!parsed.success)
    problems.push(`decision does not match routerDecisionSchema: ${parsed.error.issues[0]?.message ?? ""}`);
  problems.push(...routerDecisionProblems(decision, input.pool));
  if (new Set(decision.selected).size !== decision.selected.length)
    problems.push(`selected repeats a harness: ${decision.selected.join(", ")}`);
  const expected = Math.min(input.k, input.pool.siblings.length);
  if (decision.selected.length !== expected)
    problems.push(
      `selected ${decision.selected.length} harnesses for k=${input.k} and ${input.pool.siblings.length} siblings (expected ${expected})`,
    );
  const top = decision.ranking.slice(0, decision.selected.length).map((entry) => entry.harnessId);
  if (top.join("\u0000") !== decision.selected.join("\u0000"))
    problems.push(
      `selected (${decision.selected.join(", ")}) is not the top of the ranking (${top.join(", ")})`,
    );
  return problems;
}

function fingerprint(decision: RouterDecision): string {
  return JSON.stringify({
    selected: decision.selected,
    ranking: decision.ranking.map((entry) => [entry.harnessId, entry.score]),
  });
}

type CheckRunner = (name: string, body: () => Promise<string[]>) => Promise<void>;

function checkRunner(checks: ConformanceCheck[]): CheckRunner {
  return async (name, body) => {
    try {
      const problems = await body();
      checks.push({ name, passed: problems.length === 0, detail: problems.join("; ") });
    } catch (error) {
      checks.push({
        name,
        passed: false,
        detail: `threw: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  };
}

async function checkSelectionAndSeed(
  check: CheckRunner,
  router: RouterV1,
  createRouter: () => RouterV1 | Promise<RouterV1>,
  base: RoutingInput,
): Promise<void> {
  await check("returns only pool members, no repeats, top-k of its ranking", async () =>
    problemsOf(await router.route(base), base),
  );
  await check("respects k (1, 2, 3, and k above the pool size)", async () => {
    const problems: string[] = [];
    for (const k of [1, 2, 3, 10])
      problems.push(
        ...problemsOf(await router.route({ ...base, k }), { ...base, k }).map((text) => `k=${k}: ${text}`),
      );
    return problems;
  });
  await check("deterministic for a seed", async () => {
    const first = fingerprint(await router.route(base));
    const again = fingerprint(await router.route(base));
    const fresh = fingerprint(await (await createRouter()).route(base));
    return [
      ...(first === again ? [] : ["two calls with the same seed differ"]),
      ...(first === fresh ? [] : ["a fresh router with the same seed differs"]),
    ];
  });
}

async function checkEdgeInputs(
  check: CheckRunner,
  router: RouterV1,
  base: RoutingInput,
  fixtures: ConformanceFixtures,
): Promise<void> {
  await check("survives missing profiles (null)", async () =>
    problemsOf(await router.route({ ...base, profiles: null }), base),
  );
  await check("survives an empty profile set", async () =>
    problemsOf(
      await router.route({ ...base, profiles: { schemaVersion: 1, profiles: {}, history: [] } }),
      base,
    ),
  );
  await check("survives an empty profile (no episodes, no rescues)", async () => {
    const empty: HarnessProfile = {
      harnessId: "sibling-budget",
      policyVersion: "x",
      episodes: 0,
      successRate: 0,
      perCategory: {},
      rescueByMode: {},
      behaviour: {},
    };
    const profiles = {
      ...fixtures.profiles,
      profiles: { ...fixtures.profiles.profiles, "sibling-budget": empty },
    };
    return problemsOf(await router.route({ ...base, profiles }), base);
  });
  await check("handles Rank-1 input (no failed group, k=1)", async () =>
    problemsOf(await router.route({ ...base, failedGroup: [], k: 1 }), { ...base, k: 1 }),
  );
  await check("handles an empty pool", async () => {
    const pool = { ...fixtures.pool, siblings: [] };
    const decision = await router.route({ ...base, pool });
    return decision.selected.length === 0
      ? []
      : [`selected ${decision.selected.join(", ")} from an empty pool`];
  });
}

/**
 * The router conformance kit. Runs a router built by `createRouter` on synthetic inputs and checks that
 * it returns only pool members, respects k, is deterministic for a seed (same instance and a fresh one),
 * survives empty and missing profiles, handles Rank-1 input (no failed group) and an empty pool, and
 * returns schema-valid decisions whose selection is the top of the ranking. Framework-agnostic: assert
 * `report.passed` (or call `assertRouterConformance`) in any test runner.
 */
export async function checkRouterConformance(
  createRouter: () => RouterV1 | Promise<RouterV1>,
): Promise<ConformanceReport> {
  const fixtures = conformanceFixtures();
  const router = await createRouter();
  const base: RoutingInput = {
    task: fixtures.task,
    failedGroup: fixtures.failedGroup,
    pool: fixtures.pool,
    profiles: fixtures.profiles,
    k: 2,
    seed: 7,
  };
  const checks: ConformanceCheck[] = [];
  const check = checkRunner(checks);
  await checkSelectionAndSeed(check, router, createRouter, base);
  await checkEdgeInputs(check, router, base, fixtures);
  return { routerId: router.id, passed: checks.every((entry) => entry.passed), checks };
}

/** Runs the kit and throws an `Error` listing every failed check. */
export async function assertRouterConformance(
  createRouter: () => RouterV1 | Promise<RouterV1>,
): Promise<ConformanceReport> {
  const report = await checkRouterConformance(createRouter);
  if (!report.passed) {
    const failed = report.checks
      .filter((entry) => !entry.passed)
      .map((entry) => `- ${entry.name}: ${entry.detail}`);
    throw new Error(`router "${report.routerId}" fails the conformance kit:\n${failed.join("\n")}`);
  }
  return report;
}
