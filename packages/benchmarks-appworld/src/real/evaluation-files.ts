import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { computeAppWorldMetrics } from "../metrics/appworld-metrics.js";
import type { Evaluation } from "../protocol/schemas.js";

/**
 * The `/evaluate` results of a run, by experiment and dataset, written at the end in the shape of
 * AppWorld's own `experiments/outputs/<experiment>/evaluations/<dataset>.json`: `{aggregate:
 * {task_goal_completion, scenario_goal_completion}, individual: {task_id: TestTracker.to_dict()}}`
 * (ace-agent/ace-appworld src/appworld/evaluator.py:376-383 and 600-611).
 */
export class EvaluationRecorder {
  private readonly byExperiment = new Map<string, Map<string, Map<string, Evaluation>>>();

  /** Records one episode's evaluation. */
  record(experiment: string, dataset: string, taskId: string, evaluation: Evaluation): void {
    const datasets = this.byExperiment.get(experiment) ?? new Map<string, Map<string, Evaluation>>();
    const tasks = datasets.get(dataset) ?? new Map<string, Evaluation>();
    tasks.set(taskId, evaluation);
    datasets.set(dataset, tasks);
    this.byExperiment.set(experiment, datasets);
  }

  /** Writes one file per experiment and dataset under `outputsDirectory`; returns the files written. */
  async write(outputsDirectory: string): Promise<string[]> {
    const files: string[] = [];
    for (const [experiment, datasets] of this.byExperiment) {
      const directory = join(outputsDirectory, experiment, "evaluations");
      await mkdir(directory, { recursive: true });
      for (const [dataset, tasks] of datasets) {
        const file = join(directory, `${dataset}.json`);
        await writeFile(file, `${JSON.stringify(evaluationFile(tasks), null, 4)}\n`);
        files.push(file);
      }
    }
    return files;
  }
}

/** The content of an `evaluations/<dataset>.json` for the given task evaluations. */
export function evaluationFile(tasks: ReadonlyMap<string, Evaluation>): {
  aggregate: { task_goal_completion: number; scenario_goal_completion: number };
  individual: Record<string, Evaluation>;
} {
  const metrics = computeAppWorldMetrics(
    [...tasks].map(([taskId, evaluation]) => ({
      taskId,
      success: evaluation.success,
      difficulty: evaluation.difficulty,
    })),
  );
  return {
    aggregate: {
      task_goal_completion: metrics.aggregate.task_goal_completion,
      scenario_goal_completion: metrics.aggregate.scenario_goal_completion,
    },
    individual: Object.fromEntries(tasks),
  };
}
