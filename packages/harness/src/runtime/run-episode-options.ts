import type { BenchmarkV1, HarnessConfig, PolicyV1, Task } from "@hs/spec";

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
