import { observeTask, observeTrajectory } from "@hs/harness";
import type { FailureLabel, ObservedTask, ObservedTrajectory, Trajectory } from "@hs/spec";

/** A failure classifier (version 1): labels one failed trajectory with failure modes and evidence. */
export interface FailureClassifierV1 {
  /** Contract version. */
  readonly specificationVersion: "v1";
  /** Classifier id, recorded as the `source` of its labels. */
  readonly id: string;
  /**
   * Labels a failed trajectory. It receives the observed trajectory (no grading details, no dataset
   * category) and, when known, the observed task.
   */
  classify(
    trajectory: ObservedTrajectory,
    options?: { task?: ObservedTask; signal?: AbortSignal },
  ): Promise<FailureLabel[]>;
}

/** Options of `classifyFailure` and `labelTrajectory`. */
export interface ClassifyOptions {
  /** The task as the policy saw it (`observedTask(benchmark, task)`); its category is passed on. */
  task?: ObservedTask;
  /** Cancels the classifiers. */
  signal?: AbortSignal;
  /** Called for a classifier that threw; the others still label. */
  onError?: (classifierId: string, error: unknown) => void;
}

/**
 * Runs classifiers in order and merges their labels (one label per mode and source). Every classifier
 * gets the trajectory stripped of its grading details, dataset category and tool-result `data` (the observed task's
 * category, when given, replaces it). A classifier that throws is reported through `onError` and
 * skipped; the others still label. Successful trajectories get no labels.
 */
export async function classifyFailure(
  trajectory: Trajectory | ObservedTrajectory,
  classifiers: readonly FailureClassifierV1[],
  options: ClassifyOptions = {},
): Promise<FailureLabel[]> {
  if (trajectory.success) return [];
  const task = options.task === undefined ? undefined : observeTask(options.task, options.task.category);
  const observed = withoutToolData(observeTrajectory(trajectory, task?.category));
  const labels: FailureLabel[] = [];
  const seen = new Set<string>();
  for (const classifier of classifiers) {
    let found: FailureLabel[];
    try {
      found = await classifier.classify(observed, {
        ...(task === undefined ? {} : { task }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    } catch (error) {
      options.onError?.(classifier.id, error);
      continue;
    }
    for (const label of found) {
      const key = `${label.mode}\u0000${label.source}`;
      if (seen.has(key)) continue;
      seen.add(key);
      labels.push(label);
    }
  }
  return labels;
}

/**
 * The trajectory without its tool results' `data` (a payload for the harness and graders, never shown to
 * the policy, e.g. a change's affected-row count that the DBBench protocol does not print).
 */
export function withoutToolData(trajectory: ObservedTrajectory): ObservedTrajectory {
  return {
    ...trajectory,
    steps: trajectory.steps.map((step) => ({
      ...step,
      executed: step.executed.map(({ call, result }) => {
        const { data: _data, ...shown } = result;
        return { call, result: shown };
      }),
    })),
  };
}

/** A copy of the trajectory with its `failureModes` filled by the classifiers. */
export async function labelTrajectory<T extends Trajectory | ObservedTrajectory>(
  trajectory: T,
  classifiers: readonly FailureClassifierV1[],
  options: ClassifyOptions = {},
): Promise<T> {
  return { ...trajectory, failureModes: await classifyFailure(trajectory, classifiers, options) };
}

/** The distinct modes of a trajectory's labels. */
export function modesOf(trajectory: Pick<Trajectory, "failureModes">): string[] {
  return [...new Set(trajectory.failureModes.map((label) => label.mode))];
}
