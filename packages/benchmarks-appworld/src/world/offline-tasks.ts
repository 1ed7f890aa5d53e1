import { scenarioCatalog } from "./scenarios/catalog.js";
import { buildWorldTask, type OfflineSplit, type WorldTask } from "./world-task.js";

let built: Map<string, WorldTask> | undefined;

/** Every task of the offline world by id (built once, on first use). Gold: server and grader only. */
export function offlineTasks(): ReadonlyMap<string, WorldTask> {
  if (built === undefined) {
    const tasks = new Map<string, WorldTask>();
    for (const scenario of scenarioCatalog) {
      for (const variant of [1, 2, 3] as const) {
        const task = buildWorldTask(scenario, variant);
        tasks.set(task.taskId, task);
      }
    }
    built = tasks;
  }
  return built;
}

/** The offline tasks of a split, in catalog order. */
export function offlineTasksOfSplit(split: OfflineSplit): WorldTask[] {
  return [...offlineTasks().values()].filter((task) => task.split === split);
}
