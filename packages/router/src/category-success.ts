import type { HarnessProfile, ObservedTask } from "@hs/spec";

/**
 * A profile's success on the task's observable category; undefined when the benchmark declares no
 * observable category for the task or the category was not profiled.
 */
export function categorySuccess(
  profile: HarnessProfile,
  task: Pick<ObservedTask, "category">,
): number | undefined {
  return task.category === undefined ? undefined : profile.perCategory[task.category];
}

/** How a category figure is named in a reason: the observable category, or "all tasks". */
export function categoryName(task: Pick<ObservedTask, "category">): string {
  return task.category ?? "all tasks (no observable category)";
}
