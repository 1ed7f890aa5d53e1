import { createRuleClassifier, type FailureClassifierV1, labelTrajectory } from "@hs/failure-analysis";
import { type EpisodeExecutor, genericConventions, observedTask, type ReplayAction } from "@hs/harness";
import { type ProfileBuilder, reanchorProfiles } from "@hs/profiles";
import { createRescuer, type GroupRescuer, type SamplingMethod, type TrainerConfig } from "@hs/rescue-grpo";
import {
  type BenchmarkV1,
  type HarnessConfig,
  InvalidInputError,
  type PolicyV1,
  type Pool,
  type ProfileSet,
  type RouterV1,
  type Task,
  type Trajectory,
} from "@hs/spec";
import { defaultRouter } from "./default-router.js";
import { bestValidatedSibling, isRescueMethod, methodSelection } from "./method-selection.js";

/** What a training run needs for its method's rescue and re-anchoring (spread into `trainGrpo`). */
export interface MethodRescue {
  /** The rescue step (absent for grpo and dapo). */
  rescue?: GroupRescuer;
  /** Re-anchors profiles every N steps (harness-s with `reanchorEvery > 0` and profiles). */
  afterStep?: (step: number) => Promise<void>;
  /** Profiles for the checkpoint. */
  saveExtra?: () => unknown;
  /** Profiles from the checkpoint. */
  restoreExtra?: (value: unknown) => void;
  /** Current profiles (for writing at the end). */
  profiles: () => ProfileSet | null;
}

/** Options of `createMethodRescue`. */
export interface MethodRescueOptions {
  /** The sampling method. */
  method: SamplingMethod;
  /** The run's trainer config (seed, `rescue.k`, `rescue.budget`, `rescue.keepBaseNegative`, `rescue.reanchorEvery`). */
  config: TrainerConfig;
  /** The benchmark (environments, failure conventions, observable category). */
  benchmark: BenchmarkV1;
  /** The acting policy (the one being trained). */
  policy: PolicyV1;
  /** The frozen sibling pool; required by every rescuing method. */
  pool: Pool | null;
  /** Profiles for the router, or null (the router then uses what needs no profiles). */
  profiles: ProfileSet | null;
  /** Training tasks (failures are looked up here; re-anchoring samples its fixed tasks from them). */
  tasks: readonly Task[];
  /** The router of `harness-s` (default `defaultRouter(benchmark)`); any `RouterV1`. */
  router?: RouterV1;
  /** Failure classifiers run before routing and re-anchoring (default the rule classifier of the benchmark's conventions). */
  classifiers?: readonly FailureClassifierV1[];
  /** Builds each re-anchored profile (default `buildProfile` of `@hs/profiles`). */
  profileBuilder?: ProfileBuilder;
  /** Progress lines (re-anchoring). */
  onProgress?: (message: string) => void;
  /** Where the rescue and re-anchoring rollouts run (default: in this process). */
  executor?: EpisodeExecutor;
  /** The base harness and how the policy writes a replayed action under it (`config.rescue.replay` `base`). */
  replay?: { harness: HarnessConfig; actionUnder?: ReplayAction };
}

/** The rescuer's replay when the config asks for one; an error when the policy cannot write replayed actions. */
function replayOf(
  options: MethodRescueOptions,
): { harness: HarnessConfig; actionUnder: ReplayAction } | undefined {
  if ((options.config.rescue.replay ?? "none") === "none") return undefined;
  const actionUnder = options.replay?.actionUnder;
  if (options.replay === undefined || actionUnder === undefined)
    throw new InvalidInputError(
      "rescue.replay is base but the run has no way to write a replayed action under the base views (the embedded policy has one)",
      { field: "rescue.replay" },
    );
  return { harness: options.replay.harness, actionUnder };
}

/** Recent base failures kept for re-anchoring. */
const recentFailureWindow = 16;
/** Fixed tasks of the re-anchoring probe. */
const fixedProbeTasks = 8;

/**
 * Builds the rescue of a method: router top-k (`harness-s`), the best validated sibling
 * (`single-sibling`), k random siblings (`random-rescue`) or all of them (`all-rescue`), with
 * failure-mode labelling before routing and, for `harness-s`, re-anchoring of the profiles every
 * `config.rescue.reanchorEvery` steps on recent base failures plus a fixed task sample. `grpo` and
 * `dapo` get no rescue.
 */
export function createMethodRescue(options: MethodRescueOptions): MethodRescue {
  let profiles = options.profiles;
  const current = () => profiles;
  if (!isRescueMethod(options.method)) return { profiles: current };
  const pool = options.pool;
  if (pool === null)
    throw new InvalidInputError(`method ${options.method} needs a sibling pool (--pool pool.json)`, {
      field: "pool",
    });
  const conventions = options.benchmark.failureConventions ?? genericConventions;
  const classifiers = options.classifiers ?? [createRuleClassifier(conventions)];
  const tasksById = new Map(options.tasks.map((task) => [task.id, task]));
  const recentFailures: Trajectory[] = [];
  const single = bestValidatedSibling(pool);
  const replay = replayOf(options);
  const rescuer = createRescuer({
    benchmark: options.benchmark,
    pool,
    policy: options.policy,
    selection: methodSelection[options.method],
    ...(options.method === "harness-s" ? { router: options.router ?? defaultRouter(options.benchmark) } : {}),
    ...(single === undefined ? {} : { singleSiblingId: single }),
    k: options.config.rescue.k,
    rescueBudget: options.config.rescue.budget,
    keepBaseNegative: options.config.rescue.keepBaseNegative,
    ...(options.config.rescue.negatives === undefined ? {} : { negatives: options.config.rescue.negatives }),
    seed: options.config.seed,
    profiles: current,
    ...(options.executor === undefined ? {} : { executor: options.executor }),
    ...(replay === undefined ? {} : { replay }),
    classify: async (trajectory) => {
      const task = tasksById.get(trajectory.taskId);
      const seen = task === undefined ? {} : { task: observedTask(options.benchmark, task) };
      return (await labelTrajectory(trajectory, classifiers, seen)).failureModes;
    },
  });
  const rescue: GroupRescuer = async (group, context) => {
    recentFailures.push(...group.trajectories);
    recentFailures.splice(0, Math.max(0, recentFailures.length - recentFailureWindow));
    return rescuer(group, context);
  };
  const every = options.config.rescue.reanchorEvery;
  const reanchors = options.method === "harness-s" && every > 0 && profiles !== null;
  return {
    rescue,
    profiles: current,
    saveExtra: () => profiles,
    restoreExtra: (value) => {
      if (value !== undefined && value !== null) profiles = value as ProfileSet;
    },
    ...(reanchors
      ? {
          afterStep: async (step: number) => {
            if (step % every !== 0 || profiles === null) return;
            profiles = await reanchor(options, pool, profiles, [...recentFailures], step, classifiers);
          },
        }
      : {}),
  };
}

/** One re-anchoring of the profiles against the current policy. */
async function reanchor(
  options: MethodRescueOptions,
  pool: Pool,
  profiles: ProfileSet,
  recentFailures: Trajectory[],
  step: number,
  classifiers: readonly FailureClassifierV1[],
): Promise<ProfileSet> {
  const fixedTasks = options.tasks
    .filter((_, index) => index % Math.max(1, Math.floor(options.tasks.length / fixedProbeTasks)) === 0)
    .slice(0, fixedProbeTasks);
  options.onProgress?.(
    `re-anchoring profiles at step ${step} on ${recentFailures.length} recent failures and ${fixedTasks.length} fixed tasks`,
  );
  return reanchorProfiles({
    benchmark: options.benchmark,
    policy: options.policy,
    profiles,
    pool,
    probe: { recentFailures, fixedTasks },
    tasks: options.tasks,
    step,
    // The seed of the recorded runs (kept so their profiles and weights do not move).
    seed: options.config.seed * 1000 + step,
    conventions: options.benchmark.failureConventions ?? genericConventions,
    classifiers,
    ...(options.profileBuilder === undefined ? {} : { profileBuilder: options.profileBuilder }),
    ...(options.executor === undefined ? {} : { executor: options.executor }),
  });
}
