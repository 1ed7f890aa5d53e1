import { randomBytes } from "node:crypto";

/** A run id that two runs never share: the start time to the second and 4 random bytes. */
export function newRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\..*$/, "");
  return `${stamp}-${randomBytes(4).toString("hex")}`;
}

/**
 * The experiment name of each episode: `<base>/<run id>/rollout-<k>`, where k counts the episodes of
 * that task in this run from 0. AppWorld writes an episode's outputs to
 * `experiments/outputs/<experiment>/tasks/<task_id>/` and empties that folder when a world of the
 * same experiment and task starts (ace-agent/ace-appworld src/appworld/environment.py:226-235, 434),
 * so a shared name would let re-runs and parallel rollouts of a task overwrite each other. Rollout k
 * of a run holds each task at most once, so it is itself an AppWorld experiment that
 * `appworld evaluate <experiment> <dataset>` can read.
 */
export class ExperimentNames {
  private readonly rollouts = new Map<string, number>();

  constructor(
    /** The name given by the user (`--experiment-name`). */
    readonly base: string,
    /** This run's id. */
    readonly runId: string = newRunId(),
  ) {}

  /** The experiment of the next episode of a task. */
  next(taskId: string): string {
    const rollout = this.rollouts.get(taskId) ?? 0;
    this.rollouts.set(taskId, rollout + 1);
    return `${this.base}/${this.runId}/rollout-${rollout}`;
  }
}
