import { z } from "zod";

/** What the trajectory browser lists of one trajectory (the whole record stays on disk). */
export interface TrajectorySummary {
  /** Trajectory id. */
  id: string;
  /** Task id. */
  taskId: string;
  /** Harness id. */
  harnessId: string;
  /** Whether the episode passed. */
  success: boolean;
  /** Reward. */
  reward: number;
  /** Failure modes labelled on it. */
  failureModes: string[];
  /** Steps taken. */
  steps: number;
  /** Why it ended. */
  endReason: string;
}

const trajectoryLineSchema = z
  .object({
    id: z.string(),
    taskId: z.string(),
    harnessId: z.string(),
    success: z.boolean(),
    reward: z.number(),
    failureModes: z.array(z.string()).default([]),
    steps: z.array(z.unknown()),
    endReason: z.string().default(""),
  })
  .passthrough();

/** A trajectory line's summary, or the reason the line is not a trajectory. */
export function summarizeTrajectory(value: unknown): TrajectorySummary | { problem: string } {
  const parsed = trajectoryLineSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { problem: `not a trajectory: field "${issue?.path.join(".")}" ${issue?.message ?? ""}`.trim() };
  }
  const { id, taskId, harnessId, success, reward, failureModes, steps, endReason } = parsed.data;
  return { id, taskId, harnessId, success, reward, failureModes, steps: steps.length, endReason };
}

/** Filters of the trajectory browser. */
export const trajectoryFilterSchema = z.object({
  /** Part of the task id. */
  task: z.string().optional(),
  /** Harness id, exactly. */
  harness: z.string().optional(),
  /** `success` or `failure`. */
  outcome: z.enum(["success", "failure"]).optional(),
  /** A failure mode the trajectory carries. */
  mode: z.string().optional(),
  /** First row to return. */
  offset: z.coerce.number().int().nonnegative().default(0),
  /** Rows to return. */
  limit: z.coerce.number().int().positive().max(500).default(100),
});
/** Filters of the trajectory browser. */
export type TrajectoryFilter = z.infer<typeof trajectoryFilterSchema>;

/** Whether a summary passes the filters. */
export function matchesFilter(summary: TrajectorySummary, filter: TrajectoryFilter): boolean {
  if (filter.task !== undefined && !summary.taskId.includes(filter.task)) return false;
  if (filter.harness !== undefined && summary.harnessId !== filter.harness) return false;
  if (filter.outcome !== undefined && summary.success !== (filter.outcome === "success")) return false;
  if (filter.mode !== undefined && !summary.failureModes.includes(filter.mode)) return false;
  return true;
}
