import { scenarioCatalog } from "./scenarios/catalog.js";
import { buildWorldTask, type OfflineSplit, splitOfScenario, type WorldTask } from "./world-task.js";

const built = new Map<string, WorldTask>();
const scenarios = new Map(scenarioCatalog.map((scenario) => [scenario.id, scenario]));

/** Every offline task id, in catalog order (no world is built). */
export function offlineTaskIds(split?: OfflineSplit): string[] {
  return scenarioCatalog
    .filter((scenario) => split === undefined || splitOfScenario(scenario.id) === split)
    .flatMap((scenario) => [1, 2, 3].map((variant) => `${scenario.id}_${variant}`));
}

/** One offline task, gold included (built on first use). Gold: server and grader only. */
export function offlineTask(taskId: string): WorldTask | undefined {
  const cached = built.get(taskId);
  if (cached !== undefined) return cached;
  const match = /^([a-z0-9]+)_([123])$/.exec(taskId);
  const scenario = match === null ? undefined : scenarios.get(match[1] as string);
  if (scenario === undefined) return undefined;
  const task = buildWorldTask(scenario, Number(match?.[2]) as 1 | 2 | 3);
  built.set(taskId, task);
  return task;
}

/** Every offline task by id (builds them all). */
export function offlineTasks(): ReadonlyMap<string, WorldTask> {
  return new Map(offlineTaskIds().map((taskId) => [taskId, offlineTask(taskId) as WorldTask]));
}
