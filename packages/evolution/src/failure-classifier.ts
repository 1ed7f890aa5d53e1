import type { FailureLabel, Task, Trajectory } from "@hs/harness";

/** A failure classifier (version 1): labels one failed trajectory with failure modes and evidence. */
export interface FailureClassifierV1 {
  /** Contract version. */
  readonly specificationVersion: "v1";
  /** Classifier id, recorded as the `source` of its labels. */
  readonly id: string;
  /** Labels a failed trajectory. The task is given when known. */
  classify(trajectory: Trajectory, options?: { task?: Task; signal?: AbortSignal }): Promise<FailureLabel[]>;
}

/**
 * Runs classifiers in order and merges their labels (one label per mode and source). A classifier that
 * throws is reported through `onError` and skipped; the others still label. Successful trajectories get
 * no labels.
 */
export async function classifyFailure(
  trajectory: Trajectory,
  classifiers: readonly FailureClassifierV1[],
  options: {
    task?: Task;
    signal?: AbortSignal;
    onError?: (classifierId: string, error: unknown) => void;
  } = {},
): Promise<FailureLabel[]> {
  if (trajectory.success) return [];
  const labels: FailureLabel[] = [];
  const seen = new Set<string>();
  for (const classifier of classifiers) {
    let found: FailureLabel[];
    try {
      found = await classifier.classify(trajectory, {
        ...(options.task === undefined ? {} : { task: options.task }),
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

/** A copy of the trajectory with its `failureModes` filled by the classifiers. */
export async function labelTrajectory(
  trajectory: Trajectory,
  classifiers: readonly FailureClassifierV1[],
  options: {
    task?: Task;
    signal?: AbortSignal;
    onError?: (classifierId: string, error: unknown) => void;
  } = {},
): Promise<Trajectory> {
  return { ...trajectory, failureModes: await classifyFailure(trajectory, classifiers, options) };
}

/** The distinct modes of a trajectory's labels. */
export function modesOf(trajectory: Pick<Trajectory, "failureModes">): string[] {
  return [...new Set(trajectory.failureModes.map((label) => label.mode))];
}
