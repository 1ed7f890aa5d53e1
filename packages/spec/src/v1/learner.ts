import type { PolicyView } from "./message.js";
import type { PolicyAction } from "./policy.js";

/** One step to train on: the context the policy was shown and what it did. */
export interface TrainingStep {
  /** The view the acting policy saw (a sibling's view for rescued steps). */
  view: PolicyView;
  /** The action with its sampling log-probabilities. */
  action: PolicyAction;
}

/** One sequence (trajectory) with its advantage. */
export interface TrainingSample {
  /** Trajectory id, for bookkeeping. */
  trajectoryId: string;
  /** Harness that produced it. */
  harnessId: string;
  /** Steps to train on. */
  steps: TrainingStep[];
  /** Advantage of the whole sequence. */
  advantage: number;
}

/** One optimisation batch. */
export interface TrainingBatch {
  /** The samples. */
  samples: TrainingSample[];
}

/** Numbers a learner reports after an update (loss, KL, clip fraction, grad norm...). */
export type LearnerStats = Record<string, number>;

/** A learner (version 1): takes gradient steps for a policy. */
export interface LearnerV1 {
  /** Contract version. */
  readonly specificationVersion: "v1";
  /** Number of updates applied so far. */
  readonly updates: number;
  /** Applies one update. */
  update(batch: TrainingBatch, options?: { signal?: AbortSignal }): Promise<LearnerStats>;
  /** Saves parameters and optimiser state to a directory. */
  save(directory: string): Promise<void>;
  /** Loads what `save` wrote. */
  load(directory: string): Promise<void>;
}
