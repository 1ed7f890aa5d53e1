import { createRuleClassifier, labelTrajectory } from "@hs/evolution";
import {
  type BenchmarkV1,
  genericConventions,
  InvalidInputError,
  type PolicyV1,
  type Pool,
  type ProfileSet,
  type RouterV1,
  type Task,
  type Trajectory,
} from "@hs/harness";
import { reanchorProfiles } from "@hs/profiles";
import { createRescuer, type GroupRescuer, type SamplingMethod, type TrainerConfig } from "@hs/rescue-grpo";
import {
  createCombinedRouter,
  createProfileRouter,
  createVotingRouter,
  defaultProfileJudges,
} from "@hs/router";

/** What a training run needs for its method's rescue and re-anchoring. */
export interface MethodRescue {
  /** The rescue step (absent for grpo and dapo). */
  rescue?: GroupRescuer;
  /** Re-anchors profiles every N steps. */
  afterStep?: (step: number) => Promise<void>;
  /** Profiles for the checkpoint. */
  saveExtra?: () => unknown;
  /** Profiles from the checkpoint. */
  restoreExtra?: (value: unknown) => void;
  /** Current profiles (for writing at the end). */
  profiles: () => ProfileSet | null;
}

/** The sibling with the best validation score (rescued - regressions), for `single-sibling`. */
export function bestValidatedSibling(pool: Pool): string | undefined {
  const score = (sibling: Pool["siblings"][number]) =>
    sibling.validation.rescued - sibling.validation.regressions;
  return [...pool.siblings].sort((a, b) => score(b) - score(a) || a.id.localeCompare(b.id))[0]?.id;
}

/** The default Harness-S router: the profile router combined with a Borda vote of the profile judges. */
export function defaultRouter(benchmark: BenchmarkV1) {
  const conventions = benchmark.failureConventions ?? genericConventions;
  return createCombinedRouter({
    id: "harness-s",
    parts: [
      { router: createProfileRouter({ conventions }) },
      { router: createVotingRouter({ judges: defaultProfileJudges({ conventions }), aggregation: "borda" }) },
    ],
  });
}

/**
 * Builds the rescue of a method: router top-k (`harness-s`), the best validated sibling
 * (`single-sibling`), k random siblings (`random-rescue`) or all of them (`all-rescue`), with
 * failure-mode labelling before routing and, for `harness-s`, re-anchoring of the profiles every
 * `config.rescue.reanchorEvery` steps on recent base failures plus a fixed task sample.
 */
export function createMethodRescue(options: {
  method: SamplingMethod;
  config: TrainerConfig;
  benchmark: BenchmarkV1;
  policy: PolicyV1;
  pool: Pool | null;
  profiles: ProfileSet | null;
  tasks: readonly Task[];
  /** The router of `harness-s` (default: `defaultRouter`). */
  router?: RouterV1;
  onProgress?: (message: string) => void;
}): MethodRescue {
  let profiles = options.profiles;
  const current = () => profiles;
  if (options.method === "grpo" || options.method === "dapo") return { profiles: current };
  const pool = options.pool;
  if (pool === null)
    throw new InvalidInputError(`method ${options.method} needs a sibling pool (--pool pool.json)`, {
      field: "pool",
    });
  const conventions = options.benchmark.failureConventions ?? genericConventions;
  const classifier = createRuleClassifier(conventions);
  const tasksById = new Map(options.tasks.map((task) => [task.id, task]));
  const recentFailures: Trajectory[] = [];
  const selection = {
    "harness-s": "router",
    "single-sibling": "single",
    "random-rescue": "random",
    "all-rescue": "all",
  } as const;
  const single = bestValidatedSibling(pool);
  const rescuer = createRescuer({
    benchmark: options.benchmark,
    pool,
    policy: options.policy,
    selection: selection[options.method],
    ...(options.method === "harness-s" ? { router: options.router ?? defaultRouter(options.benchmark) } : {}),
    ...(single === undefined ? {} : { singleSiblingId: single }),
    k: options.config.rescue.k,
    rescueBudget: options.config.rescue.budget,
    keepBaseNegative: options.config.rescue.keepBaseNegative,
    seed: options.config.seed,
    profiles: current,
    classify: async (trajectory) => {
      const task = tasksById.get(trajectory.taskId);
      const labelled = await labelTrajectory(trajectory, [classifier], task === undefined ? {} : { task });
      return labelled.failureModes;
    },
  });
  const rescue: GroupRescuer = async (group, context) => {
    recentFailures.push(...group.trajectories);
    recentFailures.splice(0, Math.max(0, recentFailures.length - 16));
    return rescuer(group, context);
  };
  const every = options.config.rescue.reanchorEvery;
  const fixedTasks = options.tasks
    .filter((_, index) => index % Math.max(1, Math.floor(options.tasks.length / 8)) === 0)
    .slice(0, 8);
  return {
    rescue,
    profiles: current,
    saveExtra: () => profiles,
    restoreExtra: (value) => {
      if (value !== undefined && value !== null) profiles = value as ProfileSet;
    },
    ...(options.method === "harness-s" && every > 0 && profiles !== null
      ? {
          afterStep: async (step: number) => {
            if (step % every !== 0 || profiles === null) return;
            options.onProgress?.(
              `re-anchoring profiles at step ${step} on ${recentFailures.length} recent failures and ${fixedTasks.length} fixed tasks`,
            );
            profiles = await reanchorProfiles({
              benchmark: options.benchmark,
              policy: options.policy,
              profiles,
              pool,
              probe: { recentFailures: [...recentFailures], fixedTasks },
              tasks: options.tasks,
              step,
              seed: options.config.seed * 1000 + step,
              conventions,
            });
          },
        }
      : {}),
  };
}
