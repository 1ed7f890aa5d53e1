import { existsSync } from "node:fs";
import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { EpisodeExecutor } from "@hs/harness";
import { appendJsonl, createRandom, mixSeed, shuffle } from "@hs/harness";
import type {
  BenchmarkV1,
  HarnessConfig,
  LearnerStats,
  LearnerV1,
  PolicyV1,
  Task,
  TrainingSample,
  TrainingStep,
  Trajectory,
} from "@hs/spec";
import { InvalidInputError } from "@hs/spec";
import { groupHasSignal, groupRewards, groupSamples, type RolloutGroup } from "./groups.js";
import { noYields } from "./rescue-gate.js";
import { fileSize, loadRunState, type PromptStreamState, type RunState, saveRunState } from "./run-state.js";
import { collectStepBatch, type RunProgress, type StepBatch } from "./step-batch.js";
import { rescueMethods, type TrainerConfig, trainerConfigSchema } from "./trainer-config.js";

/** What a rescue step returns for an all-fail group. */
export interface RescueOutcome {
  /** The group to train on instead (e.g. rollouts under siblings), or null to keep the failed group. */
  group: RolloutGroup | null;
  /** Rollouts the rescue spent (counted against the budget). */
  rollouts: number;
  /** Every rollout the rescue ran (written to the run's trajectories whether or not it rescued). */
  trajectories?: Trajectory[];
  /** Free-form counters for the step's metrics (attempts and successes per sibling...). */
  metrics?: Record<string, number>;
}

/** A rescue step: called for each zero-variance all-fail base group, before the update. */
export type GroupRescuer = (
  group: RolloutGroup,
  context: { step: number; rolloutsLeft: number; signal?: AbortSignal },
) => Promise<RescueOutcome>;

/** One line of `metrics.jsonl`. */
export interface StepMetrics {
  /** 0-based optimisation step. */
  step: number;
  /** Policy version after the update. */
  policyVersion: string;
  /** Prompts drawn this step. */
  promptsDrawn: number;
  /** Groups trained on this step. */
  groupsTrained: number;
  /** Share of drawn base groups whose rewards differ. */
  signalShare: number;
  /** Share of trained groups whose rewards differ (after rescue). */
  trainedSignalShare: number;
  /** Rollouts under the base harness this step. */
  rolloutsBase: number;
  /** Rollouts spent by rescue this step. */
  rolloutsRescue: number;
  /** Rollouts spent so far (all kinds). */
  rolloutsTotal: number;
  /** Mean reward of this step's base rollouts. */
  reward: number;
  /** Success rate of this step's base rollouts. */
  success: number;
  /** Learner statistics (loss, kl, clipFraction, gradNorm...). */
  learner: LearnerStats;
  /** Rescue counters, when a rescuer ran. */
  rescue: Record<string, number>;
  /** Wall time of the step in milliseconds. */
  wallMs: number;
}

/** Everything a training run acts on. */
export interface TrainerContext {
  /** The benchmark. */
  benchmark: BenchmarkV1;
  /** The base harness. */
  harness: HarnessConfig;
  /** Training prompts. */
  tasks: readonly Task[];
  /** The acting policy (updated in place by the learner). */
  policy: PolicyV1;
  /** The learner of that policy. */
  learner: LearnerV1;
  /** Run directory (config.json, metrics.jsonl, checkpoints/). */
  outDirectory: string;
  /** Rescue step for all-fail groups (methods with rescue); absent for `grpo` and `dapo`. */
  rescue?: GroupRescuer;
  /** Called after each step. */
  onStep?: (metrics: StepMetrics) => void;
  /**
   * Called after each step's update and before its checkpoint (e.g. to re-anchor profiles). What
   * `saveExtra` returns is stored in the checkpoint and handed to `restoreExtra` on resume.
   */
  afterStep?: (step: number) => Promise<void>;
  /** Extra state to keep in each checkpoint (JSON). */
  saveExtra?: () => unknown;
  /** Restores what `saveExtra` returned, when a run resumes. */
  restoreExtra?: (value: unknown) => void;
  /** Cancels the run between episodes. */
  signal?: AbortSignal;
  /** Where the base rollouts run (default: in this process); the results do not depend on it. */
  executor?: EpisodeExecutor;
  /**
   * Harness-call credit: extra steps a trained trajectory's harness calls stand for, as the policy's
   * own decisions (`harnessCallCredit` of `@hs/learner-embedded`), trained with its advantage when
   * `config.rescue.creditHarnessCalls` is on.
   */
  creditHarnessCalls?: (trajectory: Trajectory) => TrainingStep[];
}

/** The end of a run. */
export interface TrainingSummary {
  /** Steps taken. */
  steps: number;
  /** Rollouts spent. */
  rollouts: number;
  /** Wall time in milliseconds. */
  wallMs: number;
  /** Directory of the final checkpoint. */
  finalCheckpoint: string;
}

/** Draws prompts in a seeded order, reshuffled every pass over the tasks. */
class PromptStream {
  private order: number[] = [];
  private position = 0;
  private pass = 0;
  drawn = 0;

  constructor(
    private readonly tasks: readonly Task[],
    private readonly seed: number,
  ) {}

  snapshot(): PromptStreamState {
    return { order: [...this.order], position: this.position, pass: this.pass, drawn: this.drawn };
  }

  restore(state: PromptStreamState): void {
    this.order = [...state.order];
    this.position = state.position;
    this.pass = state.pass;
    this.drawn = state.drawn;
  }

  next(): Task {
    if (this.position >= this.order.length) {
      const random = createRandom(mixSeed(this.seed, this.pass++));
      this.order = shuffle(
        this.tasks.map((_, index) => index),
        random,
      );
      this.position = 0;
    }
    this.drawn++;
    return this.tasks[this.order[this.position++] ?? 0] as Task;
  }
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

/** The parsed config, checked against the context (tasks present, a rescuer for the rescue methods). */
function validatedConfig(context: TrainerContext, input: TrainerConfig) {
  const parsed = trainerConfigSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidInputError(issue?.message ?? "invalid trainer config", {
      field: issue?.path.join(".") ?? "",
    });
  }
  const config = parsed.data;
  if (context.tasks.length === 0) throw new InvalidInputError("no training tasks", { field: "tasks" });
  if ((rescueMethods as readonly string[]).includes(config.method) && context.rescue === undefined) {
    throw new InvalidInputError(`method ${config.method} needs a rescuer (a sibling pool)`, {
      field: "method",
    });
  }
  if (config.rescue.creditHarnessCalls === true && context.creditHarnessCalls === undefined) {
    throw new InvalidInputError("harness-call credit is on but the run has no creditHarnessCalls", {
      field: "rescue.creditHarnessCalls",
    });
  }
  return config;
}

/** Creates the run directory and writes its config.json, or checks a resumed run's against it. */
async function prepareRunDirectory(
  context: TrainerContext,
  config: ReturnType<typeof validatedConfig>,
): Promise<void> {
  const configFile = join(context.outDirectory, "config.json");
  const written = {
    ...config,
    harnessId: context.harness.id,
    benchmark: context.benchmark.id,
    tasks: context.tasks.length,
  };
  await mkdir(join(context.outDirectory, "checkpoints"), { recursive: true });
  if (existsSync(configFile)) {
    const previous = JSON.parse(await readFile(configFile, "utf8")) as Record<string, unknown>;
    const changed = Object.keys({ ...previous, ...written }).find(
      (key) => JSON.stringify(previous[key]) !== JSON.stringify((written as Record<string, unknown>)[key]),
    );
    if (changed !== undefined) {
      throw new InvalidInputError(
        `the run directory holds a run with another config (${changed}: ${JSON.stringify(previous[changed])} there, ${JSON.stringify((written as Record<string, unknown>)[changed])} now); use a new --out directory`,
        { file: configFile, field: changed },
      );
    }
  } else {
    await writeFile(configFile, `${JSON.stringify(written, null, 2)}\n`);
  }
}

/**
 * The GRPO trainer loop. Each step draws prompts, collects a group of G rollouts per prompt under the
 * base harness and forms the batch by the method's rule:
 * - `grpo`: every group is kept; all-fail (zero-variance) groups have zero advantage.
 * - `dapo`: zero-variance groups are dropped and more prompts drawn until `promptsPerStep` groups
 *   have signal or `maxDrawsPerStep` prompts were drawn; every rollout counts against the budget.
 * When a rescuer is given, each zero-variance all-fail base group is handed to it first, and the group
 * it returns replaces the failed one (its rollouts count too). Then one learner update per step, one
 * metrics line, and checkpoints.
 */
export async function trainGrpo(context: TrainerContext, input: TrainerConfig): Promise<TrainingSummary> {
  const config = validatedConfig(context, input);
  const started = Date.now();
  await prepareRunDirectory(context, config);
  const files = {
    metrics: join(context.outDirectory, "metrics.jsonl"),
    trajectories: join(context.outDirectory, "trajectories.jsonl"),
  };
  const prompts = new PromptStream(context.tasks, mixSeed(config.seed, 0x70726f6d));
  const run = await startOrResume(context, files, prompts);
  const signalOption = context.signal === undefined ? {} : { signal: context.signal };
  while (run.rolloutsTotal + config.groupSize <= config.rolloutBudget) {
    const stepStarted = Date.now();
    const batch = await collectStepBatch({ context, config, prompts, progress: run, signalOption });
    if (batch.drawn === 0) break;
    const credit = countedCredit(config, context, batch);
    const samples: TrainingSample[] = batch.trained.flatMap((group) =>
      groupSamples(group, config.advantage, credit),
    );
    const learner = await context.learner.update({ samples }, signalOption);
    const metrics = stepMetrics(context.policy.version, run, batch, learner, stepStarted);
    await appendJsonl(files.trajectories, batch.ranTrajectories);
    await appendFile(files.metrics, `${JSON.stringify(metrics)}\n`);
    context.onStep?.(metrics);
    run.step++;
    await context.afterStep?.(run.step);
    await checkpointStep(context, config, files, prompts, run);
  }
  const finalCheckpoint = join(context.outDirectory, "final");
  await context.learner.save(finalCheckpoint);
  return { steps: run.step, rollouts: run.rolloutsTotal, wallMs: Date.now() - started, finalCheckpoint };
}

/** The run's harness-call credit when the config turns it on, counting its steps into `rescue.creditedSteps`. */
function countedCredit(config: TrainerConfig, context: TrainerContext, batch: StepBatch) {
  const credit = context.creditHarnessCalls;
  if (config.rescue.creditHarnessCalls !== true || credit === undefined) return undefined;
  batch.rescueMetrics.creditedSteps = 0;
  return (trajectory: Trajectory) => {
    const steps = credit(trajectory);
    batch.rescueMetrics.creditedSteps = (batch.rescueMetrics.creditedSteps ?? 0) + steps.length;
    return steps;
  };
}

/** A run's files that grow by one entry per step. */
interface StepFiles {
  metrics: string;
  trajectories: string;
}

/** A run's progress and last saved state: a fresh start (empty files), or where the checkpoint left off. */
async function startOrResume(
  context: TrainerContext,
  files: StepFiles,
  prompts: PromptStream,
): Promise<RunProgress & { saved: RunState | null }> {
  const saved = await loadRunState(context.outDirectory, context.learner);
  if (saved === null) {
    await writeFile(files.metrics, "");
    await writeFile(files.trajectories, "");
    return { step: 0, rolloutsTotal: 0, yields: noYields(), saved };
  }
  prompts.restore(saved.prompts);
  context.restoreExtra?.(saved.extra);
  return { step: saved.step, rolloutsTotal: saved.rolloutsTotal, yields: saved.yields ?? noYields(), saved };
}

/** The metrics line of the step just updated (`run.step` is still its index). */
function stepMetrics(
  policyVersion: string,
  run: RunProgress,
  batch: StepBatch,
  learner: LearnerStats,
  stepStarted: number,
): StepMetrics {
  const { trained, drawn } = batch;
  return {
    step: run.step,
    policyVersion,
    promptsDrawn: drawn,
    groupsTrained: trained.length,
    signalShare: batch.baseWithSignal / drawn,
    trainedSignalShare: trained.length === 0 ? 0 : trained.filter(groupHasSignal).length / trained.length,
    rolloutsBase: batch.rolloutsBase,
    rolloutsRescue: batch.rolloutsRescue,
    rolloutsTotal: run.rolloutsTotal,
    reward: mean(batch.baseRewards),
    success: mean(batch.baseSuccesses),
    learner,
    rescue: batch.rescueMetrics,
    wallMs: Date.now() - stepStarted,
  };
}

/** Saves the run state after a step (a checkpoint every `checkpointEvery` steps) and reloads the learner from it. */
async function checkpointStep(
  context: TrainerContext,
  config: TrainerConfig,
  files: StepFiles,
  prompts: PromptStream,
  run: RunProgress & { saved: RunState | null },
): Promise<void> {
  const extra = context.saveExtra?.();
  run.saved = await saveRunState(
    context.outDirectory,
    {
      step: run.step,
      rolloutsTotal: run.rolloutsTotal,
      yields: { ...run.yields },
      prompts: prompts.snapshot(),
      fileSizes: {
        "metrics.jsonl": await fileSize(files.metrics),
        "trajectories.jsonl": await fileSize(files.trajectories),
      },
      ...(extra === undefined ? {} : { extra }),
    },
    context.learner,
    (savedStep) => config.checkpointEvery > 0 && savedStep % config.checkpointEvery === 0,
    run.saved,
  );
  // Continue from the checkpoint's bytes, as a resumed run does (e.g. Adam's bias-correction
  // accumulators are rebuilt from the step count on load), so both take identical steps.
  await context.learner.load(join(context.outDirectory, run.saved.checkpoint));
}

/** Mean reward of a group (for logs). */
export function groupMeanReward(group: RolloutGroup): number {
  return mean(groupRewards(group));
}
