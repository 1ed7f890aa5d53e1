import type { BenchmarkV1 } from "./spec/benchmark.js";
import { type ObservedTask, observeTask, type Task } from "./spec/task.js";
import { type ObservedTrajectory, observeTrajectory, type Trajectory } from "./spec/trajectory.js";

/** The part of a benchmark that says which category the agent is shown. */
export type CategoryObserver = Pick<BenchmarkV1, "observableCategory">;

/** The task as routers, judges and Rank-1 see it: the benchmark's observable category or none. */
export function observedTask(benchmark: CategoryObserver, task: Task): ObservedTask {
  return observeTask(task, benchmark.observableCategory?.(task));
}

/**
 * The trajectory as routers, judges, proposers, classifiers and profiles see it: no grading details;
 * its category is the benchmark's observable category of `task` (none when the task is unknown or the
 * benchmark declares no observable category).
 */
export function observedTrajectory(
  benchmark: CategoryObserver,
  trajectory: Trajectory | ObservedTrajectory,
  task?: Task,
): ObservedTrajectory {
  const category = task === undefined ? undefined : benchmark.observableCategory?.(task);
  return observeTrajectory(trajectory, category);
}
