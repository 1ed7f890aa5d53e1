import { z } from "zod";
import { regexSourceSchema } from "./harness-config.js";

/**
 * A benchmark's own failure mode, found by a rule of a fixed kind over what the policy saw and did
 * (calls, tool results, the instruction); never over grading details. Rule kinds are read by
 * `@hs/failure-analysis`; a benchmark states only which apply and with which patterns.
 */
const callRuleSchema = z.strictObject({
  /** A call whose argument text matches `callPattern` (and whose result matches `resultPattern`). */
  kind: z.literal("call"),
  /** The failure mode this rule labels. */
  mode: z.string().min(1),
  /** Matches (case-sensitively) the JSON-free text of a call's string arguments. */
  callPattern: regexSourceSchema,
  /** Matches the call's result text; absent: any result. */
  resultPattern: regexSourceSchema.optional(),
  /** Only calls the environment reported as failed (true) or as succeeded (false); absent: both. */
  failed: z.boolean().optional(),
  /** Skip a failed call when a later call with the same arguments succeeded. */
  unlessRetried: z.boolean().optional(),
});

const preconditionRuleSchema = z.strictObject({
  /** A call matching `callPattern` with no earlier call matching `requiredPattern`. */
  kind: z.literal("precondition"),
  /** The failure mode this rule labels. */
  mode: z.string().min(1),
  /** Matches the call that needs something first; its named groups fill `requiredPattern`. */
  callPattern: regexSourceSchema,
  /** A template of the pattern an earlier call must match; `{name}` is the group's text, escaped. */
  requiredPattern: z.string().min(1),
});

const completedEarlyRuleSchema = z.strictObject({
  /**
   * The episode submitted without a successful state change (`changePattern`) although the instruction
   * asks for one, or without an answer (`noAnswerPattern` matches the submit) although it asks a question.
   */
  kind: z.literal("completed-early"),
  /** The failure mode this rule labels. */
  mode: z.string().min(1),
  /** Matches an instruction that asks a question; any other instruction asks for a change. */
  questionPattern: regexSourceSchema,
  /** Matches the submit call's text when it carries no answer. */
  noAnswerPattern: regexSourceSchema,
});

const sqlRuleSchema = z.strictObject({
  /** SQL statements read against the instruction (a table named in the instruction, its headers listed). */
  kind: z.literal("sql"),
  /** Captures (group 1) the instruction proper, before the table's description. */
  instructionPattern: regexSourceSchema,
  /** Captures (group 1) the comma-separated headers of the table. */
  headersPattern: regexSourceSchema,
  /** Matches an instruction that asks a question. */
  questionPattern: regexSourceSchema,
  /** Matches an instruction that asks to change existing rows. */
  updatePattern: regexSourceSchema,
  /** Words skipped between a value and the header next to it. */
  linkWords: z.array(z.string()),
  /** The modes this rule labels. */
  modes: z.strictObject({
    /** The statement kind contradicts the instruction. */
    wrongStatement: z.string().min(1),
    /** A written value or a filter literal differs from how the instruction or the data writes it. */
    valueMismatch: z.string().min(1),
    /** An UPDATE or DELETE filters on a column or value the instruction never names. */
    changedWrongRows: z.string().min(1),
    /** A value went under another column than the instruction gives it, or a filter's column lacks it. */
    wrongColumn: z.string().min(1),
  }),
});

const editTestRuleSchema = z.strictObject({
  /** Edit / test / revert cycles of a repository task, read from the edits' and test runs' output. */
  kind: z.literal("edit-test"),
  /** Matches the call that runs the tests. */
  testCallPattern: regexSourceSchema,
  /** Matches a test run's output that reports a failure or an error. */
  failedRunPattern: regexSourceSchema,
  /** Matches, in a failed run's output, an assertion failure (as opposed to an error the code raised). */
  assertionPattern: regexSourceSchema,
  /** Captures the file (group 1) and line (group 2) an edit's output reports it changed. */
  editResultPattern: regexSourceSchema,
  /** Matches the call that reverts edits. */
  revertCallPattern: regexSourceSchema,
  /** Matches a path that is a test file (not source) or outside the repository. */
  nonSourcePathPattern: regexSourceSchema,
  /** The modes this rule labels. */
  modes: z.strictObject({
    /** The last edit's run raised an error at the line it changed (every edit reverted). */
    editBrokeFile: z.string().min(1),
    /** The last edit changed a line no earlier traceback named, while one named a source line. */
    editedUnnamedLine: z.string().min(1),
    /** A kept edit checked only by passing runs. */
    neverRanFailingTests: z.string().min(1),
    /** A kept edit whose last run failed, or that no run checked. */
    submittedFailingTests: z.string().min(1),
    /** Every edit reverted, no traceback before the last edit named a source line. */
    unlocatedFailure: z.string().min(1),
    /** Every edit reverted (or none made). */
    emptySubmission: z.string().min(1),
  }),
});

/** A rule for a benchmark's own failure modes. */
export const modeRuleSchema = z.discriminatedUnion("kind", [
  callRuleSchema,
  preconditionRuleSchema,
  completedEarlyRuleSchema,
  sqlRuleSchema,
  editTestRuleSchema,
]);
/** A rule for a benchmark's own failure modes. */
export type ModeRule = z.infer<typeof modeRuleSchema>;

/**
 * The observable text conventions of a benchmark that failure rules, profiles and routers need: what an
 * empty result looks like, what a well-formed answer looks like. Data only; a benchmark supplies them
 * (`BenchmarkV1.failureConventions`) and no other package names a benchmark.
 */
export const failureConventionsSchema = z.strictObject({
  /** Name of the conventions, part of the classifier id (e.g. the benchmark id). */
  id: z.string().min(1),
  /** Matches (case-insensitively, whole trimmed text) a tool result that is an empty result. */
  emptyResultPattern: regexSourceSchema,
  /** Matches a well-formed submitted answer; null accepts any answer. */
  answerFormatPattern: regexSourceSchema.nullable(),
  /** Matches an answer that says "nothing was found" (an empty result read correctly). */
  emptyAnswerPattern: regexSourceSchema,
  /** Argument of the submit call that holds the answer; null reads all arguments as JSON. */
  answerArgument: z.string().nullable(),
  /** Tools that submit an answer (an executed call whose result ends the episode counts too). */
  submitTools: z.array(z.string()),
  /**
   * Matches (case-insensitively) a string argument of a call that changes the environment's state, e.g.
   * an SQL UPDATE or a file edit; absent when no call is known to change state.
   */
  changePattern: regexSourceSchema.optional(),
  /** Rules for the benchmark's own failure modes, applied after the common rules. */
  modeRules: z.array(modeRuleSchema).optional(),
  /**
   * Modes in order of precedence: a trajectory's labels are sorted by it and the first is its primary
   * mode (the one a hand label is compared with). Unlisted modes follow in the order they were found.
   */
  modePriority: z.array(z.string()).optional(),
});
/** A benchmark's observable text conventions for failure rules. */
export type FailureConventions = z.infer<typeof failureConventionsSchema>;
