import { z } from "zod";

/**
 * A task as every package outside a benchmark's grader sees it. Gold answers, reference solutions
 * and hashes are never part of a Task: they stay inside the benchmark's grader.
 */
export const taskSchema = z.object({
  /** Stable id, unique within the benchmark, e.g. `appworld/train/50e1ac9_1`. */
  id: z.string().min(1),
  /** Benchmark id, e.g. `appworld`. */
  benchmark: z.string().min(1),
  /** Split the task came from, e.g. `train`, `dev`, `heldout`. */
  split: z.string().min(1),
  /** Category used for per-category metrics, e.g. a dataset's task type or difficulty. */
  category: z.string().min(1),
  /** The natural-language instruction shown to the policy. */
  instruction: z.string(),
  /** Public metadata the harness may render (e.g. table name and headers). Never gold data. */
  metadata: z.record(z.string(), z.unknown()),
});

/** A task as every package outside a benchmark's grader sees it. */
export type Task = z.infer<typeof taskSchema>;

/**
 * A task as routers, judges and Rank-1 receive it: the task without the dataset's `category`
 * annotation. `category` holds the benchmark's observable category (`BenchmarkV1.observableCategory`,
 * inferred from what the policy is shown), absent when the benchmark declares none.
 */
export type ObservedTask = Omit<Task, "category"> & {
  /** The observable category; absent when the benchmark declares none. */
  category?: string;
};
