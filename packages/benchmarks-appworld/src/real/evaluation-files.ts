import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { computeAppWorldMetrics } from "../metrics/appworld-metrics.js";
import type { Evaluation } from "../protocol/schemas.js";

/**
 * The `/evaluate` results of a run, by experiment and dataset, each file rewritten after every
 * evaluation (so a run that ends without `close` still leaves them), in the shape of
 * AppWorld's own `experiments/outputs/<experiment>/evaluations/<dataset>.json`: `{aggregate:
 * {task_goal_completion, scenario_goal_completion}, individual: {task_id: TestTracker.to_dict()}}`
 * (ace-agent/ace-appworld src/appworld/evaluator.py:376-383 and 600-611).
 */
export class EvaluationRecorder {
  private readonly byFile = new Map<string, Map<string, Evaluation>>();
  private writing: Promise<void> = Promise.resolve();

  /** `outputsDirectory`: where `<experiment>/evaluations/<dataset>.json` go. */
  constructor(private readonly outputsDirectory: string) {}

  /** Records one episode's evaluation and rewrites its file; resolves once it is on disk. */
  async record(experiment: string, dataset: string, taskId: string, evaluation: Evaluation): Promise<string> {
    const file = join(this.outputsDirectory, experiment, "evaluations", `${dataset}.json`);
    const tasks = this.byFile.get(file) ?? new Map<string, Evaluation>();
    tasks.set(taskId, evaluation);
    this.byFile.set(file, tasks);
    const text = `${JSON.stringify(evaluationFile(tasks), null, 4)}\n`;
    const write = this.writing.then(async () => {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, text);
    });
    this.writing = write.catch(() => {});
    await write;
    return file;
  }

  /** Waits for the writes under way. */
  async settled(): Promise<void> {
    await this.writing;
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
