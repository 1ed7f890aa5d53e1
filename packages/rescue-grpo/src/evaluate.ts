import { runEpisode } from "@hs/harness";
import type { BenchmarkV1, HarnessConfig, PolicyV1, Task, Trajectory } from "@hs/spec";

/** Options of `evaluatePolicy`. */
export interface EvaluateOptions {
  /** Tasks to run, one episode each. */
  tasks: readonly Task[];
  /** Their benchmark. */
  benchmark: BenchmarkV1;
  /** The harness (the base harness for held-out evaluation). */
  harness: HarnessConfig;
  /** Picks the harness per task instead (Rank-1 inference); one episode per task either way. */
  harnessFor?: (task: Task) => Promise<HarnessConfig>;
  /** The policy. */
  policy: PolicyV1;
  /** Seed of the episodes (task i runs with seed + i). */
  seed: number;
  /** `greedy` (default) or `sample`. */
  mode?: "greedy" | "sample";
  /** Called after each episode. */
  onEpisode?: (trajectory: Trajectory, done: number, total: number) => void;
  /** Cancels the evaluation. */
  signal?: AbortSignal;
}

/** What an evaluation measured. */
export interface EvaluationResult {
  /** Share of tasks passed. */
  success: number;
  /** Number of tasks. */
  n: number;
  /** The benchmark's own metrics (`summarize`). */
  metrics: Record<string, number>;
  /** Per category: tasks and share passed. */
  perCategory: Record<string, { n: number; success: number }>;
  /** Every episode. */
  trajectories: Trajectory[];
}

/** Runs each task once under the harness and summarises with the benchmark's own metrics. */
export async function evaluatePolicy(options: EvaluateOptions): Promise<EvaluationResult> {
  const trajectories: Trajectory[] = [];
  for (const [index, task] of options.tasks.entries()) {
    const trajectory = await runEpisode({
      task,
      benchmark: options.benchmark,
      harness: options.harnessFor === undefined ? options.harness : await options.harnessFor(task),
      policy: options.policy,
      seed: options.seed + index,
      mode: options.mode ?? "greedy",
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    trajectories.push(trajectory);
    options.onEpisode?.(trajectory, index + 1, options.tasks.length);
  }
  const outcomes = trajectories.map((trajectory) => ({
    category: trajectory.category,
    success: trajectory.success,
    reward: trajectory.reward,
  }));
  const perCategory: Record<string, { n: number; success: number }> = {};
  for (const outcome of outcomes) {
    const entry = perCategory[outcome.category] ?? { n: 0, success: 0 };
    entry.n += 1;
    entry.success += outcome.success ? 1 : 0;
    perCategory[outcome.category] = entry;
  }
  for (const entry of Object.values(perCategory)) entry.success = entry.n === 0 ? 0 : entry.success / entry.n;
  const passed = outcomes.filter((outcome) => outcome.success).length;
  return {
    success: outcomes.length === 0 ? 0 : passed / outcomes.length,
    n: outcomes.length,
    metrics: options.benchmark.summarize(outcomes),
    perCategory,
    trajectories,
  };
}
