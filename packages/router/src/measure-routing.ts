import {
  createRuleClassifier,
  type EpisodeRunner,
  episodeSeed,
  type FailureClassifierV1,
  labelTrajectory,
  runJobs,
} from "@hs/failure-analysis";
import { observedTask, observedTrajectory } from "@hs/harness";
import {
  type ObservedTrajectory,
  type Pool,
  type ProfileSet,
  type RouterV1,
  rerollControlId,
  type Task,
} from "@hs/spec";
import { modeMix } from "./mode-mix.js";

/** Options of `measureRouting`. */
export interface MeasureRoutingOptions extends EpisodeRunner {
  /** The pool. */
  pool: Pool;
  /** Profiles the routers read. */
  profiles: ProfileSet | null;
  /** Routers to compare. */
  routers: readonly RouterV1[];
  /** Held-out tasks. */
  tasks: readonly Task[];
  /** Base rollouts per task: a group (default 4). */
  groupSize?: number;
  /** Rollouts per sibling for a failed group; the group is rescued when one succeeds (default 1). */
  rescueRollouts?: number;
  /** Seed (default 0). */
  seed?: number;
  /** Classifiers for the base failures (default generic rules). */
  classifiers?: readonly FailureClassifierV1[];
  /** Progress lines. */
  onProgress?: (message: string) => void;
}

/** How often each choice rescues an all-failed group. */
export interface RoutingMeasurement {
  /** Groups run under the base harness. */
  groups: number;
  /** Groups in which every rollout failed. */
  failedGroups: number;
  /** Router id -> share of failed groups its top-1 rescued. */
  routerTop1: Record<string, number>;
  /** Router id -> sibling id -> how many failed groups the router sent to that sibling first. */
  routerPicks: Record<string, Record<string, number>>;
  /** Expected share for a sibling drawn uniformly at random. */
  randomSibling: number;
  /** Share for the single best sibling chosen after the fact. */
  bestSingle: { harnessId: string | null; rate: number };
  /** Share rescued by at least one sibling (the ceiling). */
  anySibling: number;
  /** Share rescued by the base harness re-rolled with the siblings' seeds (the chance control). */
  rerollControl: number;
  /** Sibling id -> share of failed groups it rescued. */
  perSibling: Record<string, number>;
  /** Each all-failed group: its task, the base group's failure-mode mix and the siblings that rescued it. */
  outcomes: RoutingOutcome[];
}

/** One all-failed group of a routing measurement. */
export interface RoutingOutcome {
  /** Task id. */
  taskId: string;
  /** Task category. */
  category: string;
  /** Failure-mode mix of the base group (mode -> weight, summing to 1). */
  mix: Record<string, number>;
  /** Siblings of which at least one rollout succeeded. */
  rescuedBy: string[];
  /** Router id -> its top-1 sibling. */
  top1: Record<string, string | null>;
}

interface FailedGroup {
  task: Task;
  group: ObservedTrajectory[];
}

function share(values: readonly boolean[]): number {
  return values.length === 0 ? 0 : values.filter(Boolean).length / values.length;
}

/** Runs a group per task under the base harness and keeps the all-failed ones, labelled by the classifiers. */
async function findFailedGroups(
  options: MeasureRoutingOptions,
  groupSize: number,
  seed: number,
): Promise<FailedGroup[]> {
  const classifiers = options.classifiers ?? [createRuleClassifier()];
  const jobs = options.tasks.flatMap((task) =>
    Array.from({ length: groupSize }, (_, rollout) => ({
      task,
      harness: options.pool.base.config,
      seed: episodeSeed(task.id, rollout, seed),
    })),
  );
  options.onProgress?.(`base: ${jobs.length} episodes`);
  const base = await runJobs(options, jobs);
  const failedGroups: FailedGroup[] = [];
  for (const [index, task] of options.tasks.entries()) {
    const group = base.slice(index * groupSize, (index + 1) * groupSize);
    if (group.every((trajectory) => !trajectory.success)) {
      const seen = observedTask(options.benchmark, task);
      const labelled: ObservedTrajectory[] = [];
      for (const trajectory of group) {
        const observed = observedTrajectory(options.benchmark, trajectory, task);
        labelled.push(await labelTrajectory(observed, classifiers, { task: seen }));
      }
      failedGroups.push({ task, group: labelled });
    }
  }
  return failedGroups;
}

/** Sibling id (and the re-roll control) -> for each failed group, whether one of its rollouts succeeded. */
async function runSiblingsOnFailures(
  options: MeasureRoutingOptions,
  failedGroups: readonly FailedGroup[],
  seed: number,
): Promise<Map<string, boolean[]>> {
  const rescueRollouts = options.rescueRollouts ?? 1;
  const rescued = new Map<string, boolean[]>();
  const control = { id: rerollControlId, config: options.pool.base.config };
  for (const sibling of [...options.pool.siblings, control]) {
    const siblingJobs = failedGroups.flatMap(({ task }) =>
      Array.from({ length: rescueRollouts }, (_, rollout) => ({
        task,
        harness: sibling.config,
        seed: episodeSeed(task.id, 100 + rollout, seed),
      })),
    );
    const results = await runJobs(options, siblingJobs);
    rescued.set(
      sibling.id,
      failedGroups.map((_, index) =>
        results
          .slice(index * rescueRollouts, (index + 1) * rescueRollouts)
          .some((trajectory) => trajectory.success),
      ),
    );
  }
  return rescued;
}

/** Asks every router for its top-1 on each failed group and records who rescued it. */
async function routeFailures(
  options: MeasureRoutingOptions,
  failedGroups: readonly FailedGroup[],
  rescued: ReadonlyMap<string, boolean[]>,
  seed: number,
): Promise<RoutingOutcome[]> {
  const outcomes: RoutingOutcome[] = [];
  for (const [index, { task, group }] of failedGroups.entries()) {
    const top1: Record<string, string | null> = {};
    for (const router of options.routers) {
      const decision = await router.route({
        task: observedTask(options.benchmark, task),
        failedGroup: group,
        pool: options.pool,
        profiles: options.profiles,
        k: 1,
        seed: seed + index,
      });
      top1[router.id] = decision.selected[0] ?? null;
    }
    outcomes.push({
      taskId: task.id,
      category: task.category,
      mix: modeMix(group),
      rescuedBy: [...rescued].filter(([, values]) => values[index] === true).map(([id]) => id),
      top1,
    });
  }
  return outcomes;
}

/** Each router's share of failed groups its top-1 rescued, and how often it picked each sibling first. */
function scoreRouters(routers: readonly RouterV1[], outcomes: readonly RoutingOutcome[]) {
  const routerTop1: Record<string, number> = {};
  const routerPicks: Record<string, Record<string, number>> = {};
  for (const router of routers) {
    const picks: Record<string, number> = {};
    for (const { top1 } of outcomes) {
      const top = top1[router.id];
      if (top != null) picks[top] = (picks[top] ?? 0) + 1;
    }
    routerTop1[router.id] = share(
      outcomes.map(({ top1, rescuedBy }) => rescuedBy.includes(top1[router.id] ?? "")),
    );
    routerPicks[router.id] = picks;
  }
  return { routerTop1, routerPicks };
}

/**
 * Runs groups under the base harness, keeps the all-failed ones, runs every sibling and the base
 * harness re-rolled on each of them with the same fresh seeds (so every choice is scored on the same
 * episodes), and compares each router's top-1 with the re-roll, a random sibling, the best single
 * sibling and the ceiling.
 */
export async function measureRouting(options: MeasureRoutingOptions): Promise<RoutingMeasurement> {
  const groupSize = options.groupSize ?? 4;
  const seed = options.seed ?? 0;
  const failedGroups = await findFailedGroups(options, groupSize, seed);
  options.onProgress?.(
    `${failedGroups.length} of ${options.tasks.length} groups failed entirely; running ${options.pool.siblings.length} siblings on each`,
  );
  const rescued = await runSiblingsOnFailures(options, failedGroups, seed);
  const rerollControl = share(rescued.get(rerollControlId) ?? []);
  rescued.delete(rerollControlId);
  const perSibling = Object.fromEntries([...rescued].map(([id, values]) => [id, share(values)]));
  const outcomes = await routeFailures(options, failedGroups, rescued, seed);
  const { routerTop1, routerPicks } = scoreRouters(options.routers, outcomes);
  const siblingRates = Object.entries(perSibling);
  let best: { harnessId: string | null; rate: number } = { harnessId: null, rate: 0 };
  for (const [id, rate] of siblingRates) if (rate > best.rate) best = { harnessId: id, rate };
  return {
    groups: options.tasks.length,
    failedGroups: failedGroups.length,
    routerTop1,
    routerPicks,
    randomSibling:
      siblingRates.length === 0
        ? 0
        : siblingRates.reduce((sum, [, rate]) => sum + rate, 0) / siblingRates.length,
    bestSingle: best,
    anySibling: share(outcomes.map(({ rescuedBy }) => rescuedBy.length > 0)),
    rerollControl,
    perSibling,
    outcomes,
  };
}
