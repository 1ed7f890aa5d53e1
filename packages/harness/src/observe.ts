import type { BenchmarkV1, ObservedTask, ObservedTrajectory, Task, Trajectory } from "@hs/spec";

/** The observed view of a task: its category replaced by `observableCategory` (absent: dropped). */
export function observeTask(task: Task | ObservedTask, observableCategory?: string): ObservedTask {
  const { category: _category, ...observed } = task as Task;
  return observableCategory === undefined ? observed : { ...observed, category: observableCategory };
}

/**
 * Drops the grading details and the dataset category of a trajectory, for the components that must
 * never read them; `observableCategory` (what the benchmark declares the agent is shown) replaces the
 * category when given. Returns a new object; the input is not changed.
 */
export function observeTrajectory(
  trajectory: Trajectory | ObservedTrajectory,
  observableCategory?: string,
): ObservedTrajectory {
  const { gradeDetails: _details, category: _category, ...observed } = trajectory as Trajectory;
  return observableCategory === undefined ? observed : { ...observed, category: observableCategory };
}

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
