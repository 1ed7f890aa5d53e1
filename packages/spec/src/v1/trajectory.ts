import { z } from "zod";
import { policyViewSchema } from "./message.js";
import { policyActionSchema } from "./policy.js";
import { toolCallSchema, toolResultSchema } from "./tool.js";

/** Kinds of harness events recorded on a trajectory. */
export const harnessEventTypes = [
  "truncated",
  "context-dropped",
  "malformed-action",
  "reprompted",
  "tool-error",
  "retried",
  "budget-hit",
  "verification",
  "macro",
  "tool-hidden",
  "policy-error",
  "harness-call",
] as const;

/** Something the harness did or noticed, kept for failure analysis and profiles. */
export const harnessEventSchema = z.object({
  /** What happened. */
  type: z.enum(harnessEventTypes),
  /** Step index (0-based) it belongs to. */
  step: z.number().int().nonnegative(),
  /** Human-readable detail (e.g. `observation cut from 2310 to 800 chars`). */
  detail: z.string(),
});
/** Something the harness did or noticed. */
export type HarnessEvent = z.infer<typeof harnessEventSchema>;

/** Failure modes shared by failure analysis, profiles and routers. Benchmarks may add their own. */
export const commonFailureModes = [
  "budget-exhausted",
  "malformed-action",
  "unrecovered-tool-error",
  "empty-result-misread",
  "unrecovered-empty-result",
  "wrong-answer-format",
  "context-lost",
  "premature-answer",
  "unchecked-change",
  "wrong-target",
] as const;

/** A failure mode with the evidence for it. */
export const failureLabelSchema = z.object({
  /** Failure mode name (one of `commonFailureModes` or benchmark-specific). */
  mode: z.string(),
  /** Step index of the evidence, when it points at one step. */
  step: z.number().int().nonnegative().optional(),
  /** The text that supports the label. */
  evidence: z.string(),
  /** Who labelled it: `rules` or a model id. */
  source: z.string(),
});
/** A failure mode with its evidence. */
export type FailureLabel = z.infer<typeof failureLabelSchema>;

/** One executed tool call with its result. */
export const executedCallSchema = z.object({
  /** The call as executed (after macro expansion, one entry per environment call). */
  call: toolCallSchema,
  /** The environment's result, before the context policy. */
  result: toolResultSchema,
});

/** One policy step of an episode. */
export const trajectoryStepSchema = z.object({
  /** 0-based index. */
  index: z.number().int().nonnegative(),
  /** Exactly what the policy saw (the context the learner trains on). */
  view: policyViewSchema,
  /** What the policy produced. */
  action: policyActionSchema,
  /** The tool calls parsed from the action; null when it could not be parsed. */
  parsed: z.array(toolCallSchema).nullable(),
  /** Environment calls made for this step. */
  executed: z.array(executedCallSchema),
  /** What was shown to the policy in reply (after context policy and error templates). */
  feedback: z.string(),
  /** Harness events of this step. */
  events: z.array(harnessEventSchema),
  /**
   * Calls the harness made by itself at this step (follow-ups, checks), with their results: shown to
   * the policy in `feedback`, never policy actions, so never trained on. Absent: none.
   */
  harnessCalls: z.array(executedCallSchema).optional(),
  /**
   * The part of `feedback` the error-recovery follow-ups wrote (their notes and what their calls
   * found), at its end: without it, `feedback` is what the policy's own calls brought. Absent: none.
   */
  followUpFeedback: z.string().optional(),
  /** Milliseconds spent in the policy. */
  policyMs: z.number().nonnegative(),
  /** Milliseconds spent in the environment. */
  environmentMs: z.number().nonnegative(),
});
/** One policy step of an episode. */
export type TrajectoryStep = z.infer<typeof trajectoryStepSchema>;

/** Why an episode ended. */
export const endReasons = [
  "submitted",
  "budget",
  "reprompts-exhausted",
  "output-budget",
  "error",
  "cancelled",
] as const;

/** One episode (version 1), stored as one JSONL line. */
export const trajectorySchema = z.object({
  /** Schema version. */
  schemaVersion: z.literal(1),
  /** Unique id of this episode. */
  id: z.string(),
  /** Task id. */
  taskId: z.string(),
  /** Benchmark id. */
  benchmark: z.string(),
  /** Task split. */
  split: z.string(),
  /** Task category. */
  category: z.string(),
  /** Harness id. */
  harnessId: z.string(),
  /** Content hash of the harness config. */
  harnessHash: z.string(),
  /** Policy id. */
  policyId: z.string(),
  /** Policy version that acted. */
  policyVersion: z.string(),
  /** Episode seed. */
  seed: z.number().int(),
  /** Every step. */
  steps: z.array(trajectoryStepSchema),
  /** Why the episode ended. */
  endReason: z.enum(endReasons),
  /** Error message when `endReason` is `error`. */
  error: z.string().optional(),
  /** Reward in [0, 1]. */
  reward: z.number().min(0).max(1),
  /** Whether the task was solved. */
  success: z.boolean(),
  /** Grader details (never shown to the policy). */
  gradeDetails: z.record(z.string(), z.unknown()),
  /** Failure modes, filled by failure analysis. */
  failureModes: z.array(failureLabelSchema),
  /** Episode-level harness events (all steps). */
  events: z.array(harnessEventSchema),
  /** Calls the harness made before the first step (`context.prelude`), with their results. Absent: none. */
  preludeCalls: z.array(executedCallSchema).optional(),
  /** Timings. */
  timings: z.object({
    /** ISO time the episode started. */
    startedAt: z.string(),
    /** Total wall time in milliseconds. */
    wallMs: z.number().nonnegative(),
    /** Total policy time. */
    policyMs: z.number().nonnegative(),
    /** Total environment time (reset, steps, grade). */
    environmentMs: z.number().nonnegative(),
  }),
});
/** One episode (version 1). */
export type Trajectory = z.infer<typeof trajectorySchema>;

/**
 * A trajectory as routers, judges, proposers, classifiers and profiles receive it: everything the policy
 * was shown and did, and the outcome, but no grading details (labels, gold patches, expected hashes)
 * and no dataset category. `gradeDetails?: never` makes a full `Trajectory` a type error where an
 * observed one is expected; `observeTrajectory` (`@hs/harness`) is the boundary that strips both at
 * runtime.
 */
export type ObservedTrajectory = Omit<Trajectory, "gradeDetails" | "category"> & {
  /** The benchmark's observable category (`BenchmarkV1.observableCategory`); absent when none is declared. */
  category?: string;
  /** Never present: grading details stay with the grader. */
  gradeDetails?: never;
};
