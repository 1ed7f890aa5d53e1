import { type EpisodeExecutor, runEpisode, textSeed } from "@hs/harness";
import type { BenchmarkV1, HarnessConfig, PolicyV1, Task, Trajectory } from "@hs/spec";

/** Runs `work` over items with at most `limit` in flight; results keep the input order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  });
  await Promise.all(workers);
  return results;
}

/** The seed of rollout `rollout` of a task, derived from a base seed. */
export function episodeSeed(taskId: string, rollout: number, seed: number): number {
  return textSeed(`${seed}:${taskId}:${rollout}`) >>> 1;
}

/** One episode to run. */
export interface EpisodeJob {
  /** The task. */
  task: Task;
  /** The harness. */
  harness: HarnessConfig;
  /** Episode seed. */
  seed: number;
}

/** Where episodes run. */
export interface EpisodeRunner {
  /** Benchmark that creates environments. */
  benchmark: BenchmarkV1;
  /** Acting policy. */
  policy: PolicyV1;
  /** Episodes in flight at once (default 1). */
  concurrency?: number;
  /** Sample (default) or greedy. */
  mode?: "sample" | "greedy";
  /** Cancels the run. */
  signal?: AbortSignal;
  /** Where the episodes run (default: in this process); its concurrency then bounds the episodes in flight. */
  executor?: EpisodeExecutor;
  /** Called as each episode of a `runJobs` batch ends, with the batch's episodes done and in all. */
  onEpisodeDone?: (done: number, total: number) => void;
}

/** Runs episodes and returns their trajectories in job order. */
export function runJobs(runner: EpisodeRunner, jobs: readonly EpisodeJob[]): Promise<Trajectory[]> {
  const run = runner.executor?.run ?? runEpisode;
  const limit = Math.max(runner.concurrency ?? 1, runner.executor?.concurrency ?? 1);
  let done = 0;
  return mapLimited(jobs, limit, async (job) => {
    const trajectory = await run({
      task: job.task,
      benchmark: runner.benchmark,
      harness: job.harness,
      policy: runner.policy,
      seed: job.seed,
      ...(runner.mode === undefined ? {} : { mode: runner.mode }),
      ...(runner.signal === undefined ? {} : { signal: runner.signal }),
    });
    done += 1;
    runner.onEpisodeDone?.(done, jobs.length);
    return trajectory;
  });
}
