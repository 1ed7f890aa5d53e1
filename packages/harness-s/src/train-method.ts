import type { FailureClassifierV1 } from "@hs/failure-analysis";
import type { EpisodeExecutor, ReplayAction } from "@hs/harness";
import type { ProfileBuilder } from "@hs/profiles";
import {
  type StepMetrics,
  type TrainerConfig,
  type TrainerContext,
  type TrainingSummary,
  trainGrpo,
} from "@hs/rescue-grpo";
import type {
  BenchmarkV1,
  HarnessConfig,
  LearnerV1,
  PolicyV1,
  Pool,
  ProfileSet,
  RouterV1,
  Task,
} from "@hs/spec";
import { createMethodRescue } from "./method-rescue.js";

/** Everything one training run of a method is assembled from. */
export interface TrainMethodOptions {
  /** The benchmark (environments, grading, failure conventions, observable category). */
  benchmark: BenchmarkV1;
  /** The base harness the groups are rolled out under. */
  harness: HarnessConfig;
  /** Training tasks. */
  tasks: readonly Task[];
  /** The policy being trained. */
  policy: PolicyV1;
  /** Its learner (any `LearnerV1`: `@hs/learner-embedded`, a remote engine...). */
  learner: LearnerV1;
  /** The trainer config (`defaultTrainerConfig(method, seed)` and overrides); `config.method` picks the method. */
  config: TrainerConfig;
  /** Where config, metrics, trajectories, checkpoints and final weights are written. */
  outDirectory: string;
  /** The frozen sibling pool (every method but grpo and dapo), or null. */
  pool?: Pool | null;
  /** Profiles for the router, or null. */
  profiles?: ProfileSet | null;
  /** The router of `harness-s` (default: profile router + Borda vote of the profile judges). */
  router?: RouterV1;
  /** Failure classifiers before routing (default: the benchmark's rule classifier). */
  classifiers?: readonly FailureClassifierV1[];
  /** Builds re-anchored profiles (default `buildProfile`). */
  profileBuilder?: ProfileBuilder;
  /** Called after every step. */
  onStep?: (metrics: StepMetrics) => void;
  /** Progress lines (re-anchoring). */
  onProgress?: (message: string) => void;
  /** Cancels the run (it stops after the current step, resumable). */
  signal?: AbortSignal;
  /** Where every rollout runs (default: in this process; e.g. a queue's workers); results do not depend on it. */
  executor?: EpisodeExecutor;
  /** Harness-call credit (`TrainerContext.creditHarnessCalls`), used when `config.rescue.creditHarnessCalls` is on. */
  creditHarnessCalls?: TrainerContext["creditHarnessCalls"];
  /** How the policy writes a replayed action under the base views, used when `config.rescue.replay` is `base`. */
  replayAction?: ReplayAction;
}

/** What a training run returns. */
export interface TrainMethodResult {
  /** The trainer's summary. */
  summary: TrainingSummary;
  /** The profiles at the end (re-anchored ones, with their history), or null. */
  profiles: ProfileSet | null;
}

/**
 * Harness-S as one call: builds the method's rescue (router composition, method-to-selection map,
 * re-anchoring) and runs the GRPO trainer loop with it. Every baseline runs through the same call:
 * set `config.method` to grpo, dapo, single-sibling, random-rescue, all-rescue or harness-s.
 */
export async function trainMethod(options: TrainMethodOptions): Promise<TrainMethodResult> {
  const methodRescue = createMethodRescue({
    method: options.config.method,
    config: options.config,
    benchmark: options.benchmark,
    policy: options.policy,
    pool: options.pool ?? null,
    profiles: options.profiles ?? null,
    tasks: options.tasks,
    ...(options.router === undefined ? {} : { router: options.router }),
    ...(options.classifiers === undefined ? {} : { classifiers: options.classifiers }),
    ...(options.profileBuilder === undefined ? {} : { profileBuilder: options.profileBuilder }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    ...(options.executor === undefined ? {} : { executor: options.executor }),
    replay: {
      harness: options.harness,
      ...(options.replayAction === undefined ? {} : { actionUnder: options.replayAction }),
    },
  });
  const summary = await trainGrpo(
    {
      benchmark: options.benchmark,
      harness: options.harness,
      tasks: options.tasks,
      policy: options.policy,
      learner: options.learner,
      outDirectory: options.outDirectory,
      ...methodRescue,
      ...(options.onStep === undefined ? {} : { onStep: options.onStep }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.executor === undefined ? {} : { executor: options.executor }),
      ...(options.creditHarnessCalls === undefined ? {} : { creditHarnessCalls: options.creditHarnessCalls }),
    },
    options.config,
  );
  return { summary, profiles: methodRescue.profiles() };
}
