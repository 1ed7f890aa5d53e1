import type { EpisodeExecutor, ReplayAction } from "@hs/harness";
import {
  assertRouterDecisionInPool,
  createRandom,
  mixSeed,
  observedTask,
  observedTrajectory,
  replayEpisode,
  shuffle,
} from "@hs/harness";
import type {
  BenchmarkV1,
  FailureLabel,
  HarnessConfig,
  ObservedTrajectory,
  PolicyV1,
  Pool,
  ProfileSet,
  RouterV1,
  Trajectory,
} from "@hs/spec";
import { InvalidInputError } from "@hs/spec";
import { collectGroup, type RolloutGroup } from "./groups.js";
import type { RescueNegatives } from "./rescue-negatives.js";
import type { GroupRescuer, RescueOutcome } from "./trainer.js";

/** How the siblings of a rescue are chosen. */
export const siblingSelections = ["router", "random", "all", "single"] as const;
/** How the siblings of a rescue are chosen. */
export type SiblingSelection = (typeof siblingSelections)[number];

/** Options of `createRescuer`. */
export interface RescuerOptions {
  /** The benchmark (environments for the rescue rollouts). */
  benchmark: BenchmarkV1;
  /** The frozen sibling pool. */
  pool: Pool;
  /** The acting policy (the same one that failed under the base harness). */
  policy: PolicyV1;
  /** `router`: the router's top-k; `random`: k seeded random siblings; `all`: every sibling; `single`: `singleSiblingId`. */
  selection: SiblingSelection;
  /** The router (required for `router`). */
  router?: RouterV1;
  /** The sibling of `single`. */
  singleSiblingId?: string;
  /** Siblings per rescue for `router` and `random`. */
  k: number;
  /** Rollouts one rescue may spend, shared out over the chosen siblings. */
  rescueBudget: number;
  /** Keep one base failure in the replacement group as a negative example. */
  keepBaseNegative: boolean;
  /** Where the replacement group's failures come from (`rescueNegatives`; absent: `sibling`). */
  negatives?: RescueNegatives;
  /** Run seed (sibling sampling, rollout seeds). */
  seed: number;
  /** Current profiles for the router (re-anchored during training), or null. */
  profiles: () => ProfileSet | null;
  /** Labels failure modes of a failed trajectory before routing; it gets the observed trajectory (no grading details). */
  classify?: (trajectory: ObservedTrajectory) => Promise<FailureLabel[]>;
  /** Where the rescue rollouts run (default: in this process). */
  executor?: EpisodeExecutor;
  /**
   * Replay each successful rescue rollout under this harness (the base), its actions written by
   * `actionUnder` under the base views; a replay the base grades a success with every action
   * transferred replaces the rollout (`replayRescues`). Absent: rescues are kept as rolled out.
   */
  replay?: { harness: HarnessConfig; actionUnder: ReplayAction };
}

/**
 * The rescued trajectories with each success that replays under `replay.harness` (every action
 * transferred, graded a success) replaced by its replay, and the replays run (each counts as a
 * rollout, within `rolloutsLeft`). Counters: `replays`, `replaysKept`.
 */
async function replayRescues(
  options: RescuerOptions,
  task: RolloutGroup["task"],
  rescued: Trajectory[],
  rolloutsLeft: number,
  metrics: Record<string, number>,
  signal?: AbortSignal,
): Promise<{ trajectories: Trajectory[]; replays: number }> {
  const replay = options.replay;
  if (replay === undefined) return { trajectories: rescued, replays: 0 };
  const trajectories: Trajectory[] = [];
  let replays = 0;
  for (const trajectory of rescued) {
    if (!trajectory.success || replays >= rolloutsLeft) {
      trajectories.push(trajectory);
      continue;
    }
    replays++;
    const replayed = await replayEpisode({
      task,
      benchmark: options.benchmark,
      harness: replay.harness,
      trajectory,
      actionUnder: replay.actionUnder,
      ...(signal === undefined ? {} : { signal }),
    });
    const kept = replayed.transferred && replayed.trajectory.success;
    trajectories.push(kept ? replayed.trajectory : trajectory);
    if (kept) metrics.replaysKept = (metrics.replaysKept ?? 0) + 1;
  }
  metrics.replays = replays;
  metrics.replaysKept ??= 0;
  return { trajectories, replays };
}

/** The group that replaces a rescued all-fail group, as `options.negatives` composes it. */
function replacementOf(options: RescuerOptions, failed: Trajectory[], rescued: Trajectory[]): Trajectory[] {
  if (options.negatives === "base") return [...failed, ...rescued.filter((trajectory) => trajectory.success)];
  return [...(options.keepBaseNegative ? failed.slice(0, 1) : []), ...rescued];
}

/** Splits `budget` rollouts over `count` siblings, earlier siblings taking the remainder. */
export function shareBudget(budget: number, count: number): number[] {
  if (count === 0) return [];
  return Array.from(
    { length: count },
    (_, index) => Math.floor(budget / count) + (index < budget % count ? 1 : 0),
  );
}

/** The failed group's trajectories, each unlabelled one labelled by `classify` (when given). */
async function labelFailures(options: RescuerOptions, group: RolloutGroup): Promise<Trajectory[]> {
  const failed: Trajectory[] = [];
  for (const trajectory of group.trajectories) {
    const labelled = options.classify === undefined || trajectory.failureModes.length > 0;
    failed.push(
      labelled
        ? trajectory
        : {
            ...trajectory,
            failureModes: await options.classify!(
              observedTrajectory(options.benchmark, trajectory, group.task),
            ),
          },
    );
  }
  return failed;
}

/** The ids of the siblings one rescue rolls out under, as `options.selection` says. */
async function chooseSiblings(
  options: RescuerOptions,
  ids: string[],
  group: RolloutGroup,
  failed: Trajectory[],
  key: number,
  signal?: AbortSignal,
): Promise<string[]> {
  switch (options.selection) {
    case "all":
      return ids;
    case "single":
      return [options.singleSiblingId as string];
    case "random": {
      const random = createRandom(mixSeed(options.seed, key, 0x72616e64));
      return shuffle(ids, random).slice(0, options.k);
    }
    case "router": {
      const router = options.router as RouterV1;
      const decision = await router.route({
        task: observedTask(options.benchmark, group.task),
        failedGroup: failed.map((trajectory) =>
          observedTrajectory(options.benchmark, trajectory, group.task),
        ),
        pool: options.pool,
        profiles: options.profiles(),
        k: options.k,
        seed: mixSeed(options.seed, key),
        ...(signal === undefined ? {} : { signal }),
      });
      assertRouterDecisionInPool(router.id, decision, options.pool);
      return decision.selected.slice(0, options.k);
    }
  }
}

/**
 * A rescue step for all-fail groups: chooses siblings, rolls the same policy out under them within the
 * rescue budget, and returns the group that replaces the failed one (rescue rollouts, plus one base
 * failure when `keepBaseNegative`). Its advantages are then computed over this replacement group.
 * Stateless: its random choices and rollout seeds derive from the run seed and the failed group's first
 * rollout seed, so a resumed run repeats them exactly.
 * Counters: `attempts`, `successes` (some rescue rollout succeeded), `routerQueries`, `routerHits` (the
 * top-ranked sibling succeeded at least once), `sibling:ID:rollouts`, `sibling:ID:successes`.
 */
export function createRescuer(options: RescuerOptions): GroupRescuer {
  const siblings = new Map(options.pool.siblings.map((sibling) => [sibling.id, sibling]));
  if (options.selection === "router" && options.router === undefined) {
    throw new InvalidInputError("router selection needs a router", { field: "router" });
  }
  if (options.selection === "single" && !siblings.has(options.singleSiblingId ?? "")) {
    throw new InvalidInputError(`sibling "${options.singleSiblingId}" is not in the pool`, {
      field: "singleSiblingId",
    });
  }
  return async (group, context): Promise<RescueOutcome> => {
    const key = group.trajectories[0]?.seed ?? context.step;
    const budget = Math.min(options.rescueBudget, context.rolloutsLeft);
    const metrics: Record<string, number> = { attempts: 1, successes: 0 };
    if (budget <= 0 || siblings.size === 0)
      return { group: null, rollouts: 0, metrics: { attempts: 0, successes: 0 } };
    const failed = await labelFailures(options, group);
    const chosen = await chooseSiblings(options, [...siblings.keys()], group, failed, key, context.signal);
    if (options.selection === "router") metrics.routerQueries = 1;
    const shares = shareBudget(budget, chosen.length);
    const rescued: Trajectory[] = [];
    let rollouts = 0;
    for (const [position, id] of chosen.entries()) {
      const share = shares[position] ?? 0;
      if (share === 0) continue;
      const sibling = siblings.get(id);
      if (sibling === undefined) continue;
      const seeds = Array.from({ length: share }, (_, rollout) =>
        mixSeed(options.seed, key, position, rollout, 0x72657363),
      );
      const siblingGroup = await collectGroup({
        task: group.task,
        benchmark: options.benchmark,
        harness: sibling.config,
        policy: options.policy,
        seeds,
        ...(context.signal === undefined ? {} : { signal: context.signal }),
        ...(options.executor === undefined ? {} : { executor: options.executor }),
      });
      rollouts += share;
      const successes = siblingGroup.trajectories.filter((trajectory) => trajectory.success).length;
      metrics[`sibling:${id}:rollouts`] = share;
      metrics[`sibling:${id}:successes`] = successes;
      if (position === 0 && options.selection === "router" && successes > 0) metrics.routerHits = 1;
      rescued.push(...siblingGroup.trajectories);
    }
    const anySuccess = rescued.some((trajectory) => trajectory.success);
    metrics.successes = anySuccess ? 1 : 0;
    if (!anySuccess) return { group: null, rollouts, trajectories: rescued, metrics };
    const replayed = await replayRescues(
      options,
      group.task,
      rescued,
      context.rolloutsLeft - rollouts,
      metrics,
      context.signal,
    );
    return {
      group: {
        task: group.task,
        harnessId: "rescue",
        trajectories: replacementOf(options, failed, replayed.trajectories),
      },
      rollouts: rollouts + replayed.replays,
      trajectories: replayed.trajectories,
      metrics,
    };
  };
}
