import { InvalidInputError } from "@hs/spec";
import { pythonRound } from "./python-round.js";

/** One evaluated task, as AppWorld's metric reads it. */
export interface TaskEvaluationRecord {
  /** Task id `<scenario>_<n>`. */
  taskId: string;
  /** Whether every test of the task passed (`TestTracker.success`). */
  success: boolean;
  /** Difficulty 1-3. */
  difficulty: number;
  /** Passed tests (requirements). */
  passes?: readonly string[];
  /** Failed tests (requirements). */
  failures?: readonly string[];
}

/** TGC and SGC in percent, rounded to one decimal as AppWorld prints them. */
export interface GoalCompletion {
  /** Share of tasks whose every test passes, in percent. */
  task_goal_completion: number;
  /** Share of scenarios whose every task passes, in percent. */
  scenario_goal_completion: number;
  /** Tasks counted. */
  num_tasks: number;
  /** Scenarios counted. */
  num_scenarios: number;
}

/** Aggregate metrics and the same per difficulty level (`Metric.build_report`). */
export interface AppWorldMetrics {
  /** Over all tasks. */
  aggregate: GoalCompletion;
  /** Over the tasks of difficulty 1, 2 and 3 (each level grouped into scenarios on its own). */
  byDifficulty: Record<"difficulty_1" | "difficulty_2" | "difficulty_3", GoalCompletion>;
}

/** A task id without its `:tag` (`remove_tag` in ace-agent/ace-appworld src/appworld/task.py:298). */
export function stripTaskTag(taskId: string): string {
  return taskId.split(":")[0] as string;
}

/**
 * The scenario of a task id: the part before the one underscore (`task_id_to_generator_id` in
 * ace-agent/ace-appworld src/appworld/task.py, which asserts there is exactly one).
 */
export function scenarioOfTaskId(taskId: string): string {
  const parts = stripTaskTag(taskId).split("_");
  if (parts.length !== 2 || parts[0] === "" || parts[1] === "") {
    throw new InvalidInputError(`expected a task id "<scenario>_<n>" with one underscore, got "${taskId}"`, {
      field: "taskId",
    });
  }
  return parts[0] as string;
}

/**
 * AppWorld's `round(100 * average(values, round_to=4), 1)` with Python's `round` (ace-agent/ace-appworld
 * src/appworld/evaluator.py:366-368, `average` in src/appworld/common/utils.py:1850); an empty list
 * counts as 0.
 */
function percentAverage(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const mean = pythonRound(values.reduce((sum, value) => sum + value, 0) / values.length, 4);
  return pythonRound(100 * mean, 1);
}

function goalCompletion(records: readonly TaskEvaluationRecord[]): GoalCompletion {
  const scenarioScores = new Map<string, number[]>();
  for (const record of records) {
    const scenario = scenarioOfTaskId(record.taskId);
    const scores = scenarioScores.get(scenario) ?? [];
    scores.push(record.success ? 1 : 0);
    scenarioScores.set(scenario, scores);
  }
  const allScores = [...scenarioScores.values()].flat();
  const scenarioMinimums = [...scenarioScores.values()].map((scores) => Math.min(...scores));
  return {
    task_goal_completion: percentAverage(allScores),
    scenario_goal_completion: percentAverage(scenarioMinimums),
    num_tasks: allScores.length,
    num_scenarios: scenarioScores.size,
  };
}

/**
 * TGC and SGC as AppWorld computes them (`Metric._compute_metrics` and `build_report` in
 * ace-agent/ace-appworld src/appworld/evaluator.py): TGC averages task successes, SGC averages per
 * scenario the minimum of its tasks' successes; per difficulty, the same over that level's tasks.
 */
export function computeAppWorldMetrics(records: readonly TaskEvaluationRecord[]): AppWorldMetrics {
  const level = (difficulty: number) =>
    goalCompletion(records.filter((record) => record.difficulty === difficulty));
  return {
    aggregate: goalCompletion(records),
    byDifficulty: { difficulty_1: level(1), difficulty_2: level(2), difficulty_3: level(3) },
  };
}

/** The metrics flattened into `name -> number` for `BenchmarkV1.summarize`. */
export function flattenMetrics(metrics: AppWorldMetrics): Record<string, number> {
  const flat: Record<string, number> = {
    task_goal_completion: metrics.aggregate.task_goal_completion,
    scenario_goal_completion: metrics.aggregate.scenario_goal_completion,
    num_tasks: metrics.aggregate.num_tasks,
    num_scenarios: metrics.aggregate.num_scenarios,
  };
  for (const [name, value] of Object.entries(metrics.byDifficulty)) {
    flat[`${name}_task_goal_completion`] = value.task_goal_completion;
    flat[`${name}_scenario_goal_completion`] = value.scenario_goal_completion;
  }
  return flat;
}
