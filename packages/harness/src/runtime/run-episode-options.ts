import type { BenchmarkV1 } from "../spec/benchmark.js";
import type { HarnessConfig } from "../spec/harness-config.js";
import type { PolicyV1 } from "../spec/policy.js";
import type { Task } from "../spec/task.js";

/** Options of one episode. */
export interface RunEpisodeOptions {
  /** The task. */
  task: Task;
  /** The benchmark that creates the task's environment. */
  benchmark: BenchmarkV1;
  /** The harness config (validated). */
  harness: HarnessConfig;
  /** The acting policy. */
  policy: PolicyV1;
  /** Episode seed; the same seed, task, harness and policy give the same trajectory. */
  seed: number;
  /** Sample (default) or act greedily. */
  mode?: "sample" | "greedy";
  /** Cancels the episode; `runEpisode` then rejects with `CancelledError`. */
  signal?: AbortSignal;
  /** Clock in milliseconds (injectable for tests). */
  now?: () => number;
}
