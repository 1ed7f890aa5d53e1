import { type CategoryObserver, observedTask } from "@hs/harness";
import type { HarnessConfig, Pool, ProfileSet, RouterDecision, RouterV1, Task } from "@hs/spec";
import { categoryName, categorySuccess } from "./category-success.js";

/** A Rank-1 choice: the one harness a task runs under, before any failure. */
export interface RankOneChoice {
  /** Chosen harness id (a sibling, or the base). */
  harnessId: string;
  /** Its config. */
  config: HarnessConfig;
  /** The router's decision behind it. */
  decision: RouterDecision;
  /** Why. */
  reason: string;
}

/**
 * Rank-1 inference: asks the router for its top sibling with an empty failed group, then keeps the base
 * harness instead when `includeBase` and the profiles say the base does at least as well on the task's
 * observable category. The router sees the task as the policy does (`observedTask`: the benchmark's
 * observable category, never the dataset annotation). The same number of executor rollouts is spent
 * either way.
 */
export async function rankOne(options: {
  router: RouterV1;
  /** The benchmark, for the task's observable category. */
  benchmark: CategoryObserver;
  task: Task;
  pool: Pool;
  profiles: ProfileSet | null;
  seed: number;
  includeBase?: boolean;
}): Promise<RankOneChoice> {
  const task = observedTask(options.benchmark, options.task);
  const decision = await options.router.route({
    task,
    failedGroup: [],
    pool: options.pool,
    profiles: options.profiles,
    k: 1,
    seed: options.seed,
  });
  const top = options.pool.siblings.find((sibling) => sibling.id === decision.selected[0]);
  const successOn = (id: string) => {
    const profile = options.profiles?.profiles[id];
    return profile === undefined ? undefined : (categorySuccess(profile, task) ?? profile.successRate);
  };
  const base = { harnessId: options.pool.base.id, config: options.pool.base.config, decision };
  if (top === undefined) return { ...base, reason: "the router selected no sibling" };
  if (options.includeBase !== false) {
    const baseRate = successOn(options.pool.base.id);
    const topRate = successOn(top.id);
    if (baseRate !== undefined && topRate !== undefined && baseRate >= topRate) {
      return {
        ...base,
        reason: `base succeeds ${(baseRate * 100).toFixed(0)}% on ${categoryName(task)}, ${top.id} ${(topRate * 100).toFixed(0)}%`,
      };
    }
  }
  return {
    harnessId: top.id,
    config: top.config,
    decision,
    reason: `router top-1 (${decision.ranking[0]?.reasons[0] ?? "no reason"})`,
  };
}
