import { mixSeed } from "@hs/harness";
import type { Task, Trajectory } from "@hs/spec";
import { collectGroup, groupAllFailed, groupHasSignal, type RolloutGroup } from "./groups.js";
import { type RescueYields, rescuePays } from "./rescue-gate.js";
import type { TrainerContext } from "./trainer.js";
import type { TrainerConfig } from "./trainer-config.js";

/** Where a run stands: the next step's index, the rollouts spent so far and what they bought. */
export interface RunProgress {
  step: number;
  rolloutsTotal: number;
  yields: RescueYields;
}

/** What one step collected before its update. */
export interface StepBatch {
  /** The groups trained on (a rescued group in place of its failed base group). */
  trained: RolloutGroup[];
  /** Rewards of the step's base rollouts. */
  baseRewards: number[];
  /** 1 for each successful base rollout, 0 for each failed one. */
  baseSuccesses: number[];
  /** The rescuer's counters, summed over the step's rescues. */
  rescueMetrics: Record<string, number>;
  /** Every rollout run this step (base and rescue), for the trajectories file. */
  ranTrajectories: Trajectory[];
  /** Prompts drawn. */
  drawn: number;
  /** Base groups whose rewards differ. */
  baseWithSignal: number;
  rolloutsBase: number;
  rolloutsRescue: number;
}

/** What collecting a step reads: the run, its config, its prompt order and its progress (updated). */
interface StepInputs {
  context: TrainerContext;
  config: TrainerConfig;
  prompts: { next(): Task; readonly drawn: number };
  progress: RunProgress;
  signalOption: { signal?: AbortSignal };
}

/** The next prompt's group of rollouts under the base harness, one seed per rollout. */
async function drawBaseGroup({ context, config, prompts, signalOption }: StepInputs): Promise<RolloutGroup> {
  const task = prompts.next();
  const drawIndex = prompts.drawn;
  const seeds = Array.from({ length: config.groupSize }, (_, rollout) =>
    mixSeed(config.seed, drawIndex, rollout),
  );
  return collectGroup({
    task,
    benchmark: context.benchmark,
    harness: context.harness,
    policy: context.policy,
    seeds,
    ...signalOption,
    ...(context.executor === undefined ? {} : { executor: context.executor }),
  });
}

/** Hands an all-fail group to the rescuer and counts what it spent; its group, or null to keep the failed one. */
async function rescueGroup(
  inputs: StepInputs,
  rescue: NonNullable<TrainerContext["rescue"]>,
  batch: StepBatch,
  group: RolloutGroup,
): Promise<RolloutGroup | null> {
  const { config, progress, signalOption } = inputs;
  const outcome = await rescue(group, {
    step: progress.step,
    rolloutsLeft: config.rolloutBudget - progress.rolloutsTotal,
    ...signalOption,
  });
  batch.rolloutsRescue += outcome.rollouts;
  batch.ranTrajectories.push(...(outcome.trajectories ?? []));
  progress.rolloutsTotal += outcome.rollouts;
  progress.yields.rescueRollouts += outcome.rollouts;
  if (outcome.group !== null && groupHasSignal(outcome.group)) progress.yields.rescueSignalGroups++;
  for (const [name, value] of Object.entries(outcome.metrics ?? {})) {
    batch.rescueMetrics[name] = (batch.rescueMetrics[name] ?? 0) + value;
  }
  return outcome.group;
}

/** Whether the config's gate lets an all-fail group be rescued; a group it holds back is counted as `gated`. */
function gateOpen({ config, progress }: StepInputs, batch: StepBatch): boolean {
  if (config.rescue.gate !== "yield" || rescuePays(progress.yields, config.rescue.budget)) return true;
  batch.rescueMetrics.gated = (batch.rescueMetrics.gated ?? 0) + 1;
  return false;
}

/**
 * The group a base group is trained as: itself when its rewards differ; else its rescue when a
 * rescuer takes it (all failed) and the gate lets it; `dapo` drops a group still without signal (null).
 */
async function keptGroup(inputs: StepInputs, batch: StepBatch, group: RolloutGroup) {
  if (groupHasSignal(group)) {
    batch.baseWithSignal++;
    inputs.progress.yields.baseSignalGroups++;
    return group;
  }
  let kept: RolloutGroup = group;
  const { rescue } = inputs.context;
  if (rescue !== undefined && groupAllFailed(group) && gateOpen(inputs, batch))
    kept = (await rescueGroup(inputs, rescue, batch, group)) ?? group;
  return inputs.config.method === "dapo" && !groupHasSignal(kept) ? null : kept;
}

/**
 * Draws prompts until `promptsPerStep` groups are kept, the method's draws per step are used up
 * (`dapo`: `maxDrawsPerStep`; otherwise `promptsPerStep`) or the budget has no room for a group.
 */
export async function collectStepBatch(inputs: StepInputs): Promise<StepBatch> {
  const { config, progress } = inputs;
  const batch: StepBatch = {
    ...{ trained: [], baseRewards: [], baseSuccesses: [], rescueMetrics: {}, ranTrajectories: [] },
    ...{ drawn: 0, baseWithSignal: 0, rolloutsBase: 0, rolloutsRescue: 0 },
  };
  const maxDraws = config.method === "dapo" ? config.maxDrawsPerStep : config.promptsPerStep;
  while (
    batch.trained.length < config.promptsPerStep &&
    batch.drawn < maxDraws &&
    progress.rolloutsTotal + config.groupSize <= config.rolloutBudget
  ) {
    const group = await drawBaseGroup(inputs);
    batch.drawn++;
    batch.ranTrajectories.push(...group.trajectories);
    batch.rolloutsBase += config.groupSize;
    progress.rolloutsTotal += config.groupSize;
    progress.yields.baseRollouts += config.groupSize;
    for (const trajectory of group.trajectories) {
      batch.baseRewards.push(trajectory.reward);
      batch.baseSuccesses.push(trajectory.success ? 1 : 0);
    }
    const kept = await keptGroup(inputs, batch, group);
    if (kept !== null) batch.trained.push(kept);
  }
  return batch;
}
