import { z } from "zod";
import type { LoadTasksOptions } from "./benchmark.js";

/** One task whose reference solution did not pass, or whose empty solution did. */
export const goldReplayFailureSchema = z.object({
  /** Task id. */
  taskId: z.string(),
  /** Why (a grader mismatch, an error, a missing repository...), in words. */
  reason: z.string(),
});
/** One gold-replay failure. */
export type GoldReplayFailure = z.infer<typeof goldReplayFailureSchema>;

/**
 * The result of running every task's reference solution, and an empty solution, through a benchmark
 * adapter (version 1). `hs gold-replay --json` prints exactly this object.
 */
export const goldReplayReportSchema = z.object({
  /** Tasks whose reference solution passed the grader. */
  passed: z.number().int().nonnegative(),
  /** Tasks replayed. */
  total: z.number().int().nonnegative(),
  /** Tasks that the empty solution (no change, no answer) passed; should be 0. */
  emptyPassed: z.number().int().nonnegative(),
  /** Every reference failure and every empty pass, with its reason. */
  failures: z.array(goldReplayFailureSchema),
  /** Records that did not load (file, line, field), so were not replayed. */
  problems: z.array(z.string()).optional(),
  /** Benchmark-specific figures (engine, per-category counts, episodes per second...). */
  details: z.record(z.string(), z.unknown()).optional(),
});
/** The result of a gold replay (version 1). */
export type GoldReplayReportV1 = z.infer<typeof goldReplayReportSchema>;

/** Options of a gold replay. */
export interface GoldReplayOptionsV1 {
  /** Which tasks: a bundled split or a file. */
  tasks: LoadTasksOptions;
  /** Cancels the replay. */
  signal?: AbortSignal;
  /** Progress: tasks done of total, with an optional word on the last one. */
  onProgress?: (done: number, total: number, detail?: string) => void;
}
