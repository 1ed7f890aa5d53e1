import { z } from "zod";
import type { ToolCall, ToolResult, ToolSpec } from "./tool.js";

/** The grade of an episode. */
export const gradeSchema = z.object({
  /** Reward in [0, 1]. */
  reward: z.number().min(0).max(1),
  /** Whether the task counts as solved. */
  success: z.boolean(),
  /** Grader details (expected vs got, hashes...), never shown to the policy. */
  details: z.record(z.string(), z.unknown()),
});
/** The grade of an episode. */
export type Grade = z.infer<typeof gradeSchema>;

/** Options of an environment call. */
export interface EnvironmentCallOptions {
  /** Cancels the call (e.g. a long test run); the environment stops its work and rejects. */
  signal?: AbortSignal;
}

/**
 * One isolated episode world (version 1): one database, one workspace or one app-world session.
 * Episodes never share mutable state; time and size limits are enforced here.
 */
export interface EnvironmentV1 {
  /** Contract version. */
  readonly specificationVersion: "v1";
  /** Tools this environment executes. */
  readonly tools: readonly ToolSpec[];
  /** Prepares the world (creates the database, checks out the repository...). */
  reset(options?: EnvironmentCallOptions): Promise<void>;
  /** Executes one tool call. Tool failures are results with `isError`, not exceptions. */
  step(call: ToolCall, options?: EnvironmentCallOptions): Promise<ToolResult>;
  /** Grades the episode from the world's state and what was submitted. */
  grade(options?: EnvironmentCallOptions): Promise<Grade>;
  /** Releases everything (drops the database, removes the workspace). Safe to call twice. */
  close(): Promise<void>;
}
