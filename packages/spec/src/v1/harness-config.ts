import { z } from "zod";
import { missingCaptureGroups } from "./capture-groups.js";
import { checkCallsSchema, followUpSchema, preludeSchema } from "./harness-call.js";
import { strictSection } from "./strict-object.js";
import { jsonSchemaSchema } from "./tool.js";

/** A string that compiles as a JavaScript regular expression. */
export const regexSourceSchema = z.string().refine(
  (source) => {
    try {
      new RegExp(source);
      return true;
    } catch {
      return false;
    }
  },
  { message: "a valid JavaScript regular expression" },
);

/** Prompt and hints: how the task is introduced. Fix direction `guidance`. */
export const promptSectionSchema = strictSection({
  /** System message. `{tools}` is replaced by a description of the exposed tools. */
  system: z.string(),
  /**
   * First user message. Template fields: `{instruction}` and any `{metadata.KEY}` of the task
   * (e.g. `{metadata.tableName}`). A `{metadata.KEY}` the task lacks is an error at episode start;
   * other unknown `{name}`s stay as written.
   */
  taskTemplate: z.string(),
  /** Hints shown to the policy, in order. */
  hints: z.array(z.string()),
  /** Where hints go: appended to the system message or to the first user message. */
  hintPlacement: z.enum(["system", "task"]),
  /**
   * Few-shot turns inserted between the system and the task message, as AgentBench's v0.2 protocol
   * does (a fixed user/assistant exchange).
   */
  examples: z.array(
    strictSection({
      /** Who says it: the user turn or the assistant's reply. */
      role: z.enum(["user", "assistant"]),
      /** The turn's text, shown as written. */
      content: z.string(),
    }),
  ),
});

/** One rule of a text protocol: a regular expression that turns reply text into a tool call. */
export const textActionRuleSchema = strictSection({
  /** Tool called when this rule matches. */
  tool: z.string(),
  /** Regular expression source, matched against the whole reply. */
  pattern: regexSourceSchema,
  /** Flags of the expression (`s`, `i`, `m`...). */
  flags: z.string().regex(/^[dgimsuvy]*$/),
  /** Argument name -> capture group (number or name) of the match; each must exist in `pattern`. */
  arguments: z.record(z.string(), z.union([z.number().int().nonnegative(), z.string()])),
  /**
   * Whether captured text is trimmed of surrounding whitespace (absent: true). `false` passes it exactly
   * as matched, for a protocol whose grader reads the raw text.
   */
  trim: z.boolean().optional(),
}).superRefine((rule, context) => {
  for (const problem of missingCaptureGroups(rule.pattern, rule.flags, rule.arguments)) {
    context.addIssue({ code: "custom", path: ["arguments", problem.argument], message: problem.message });
  }
});

/** How actions are expressed and parsed. Fix direction `action-format`. */
export const actionFormatSectionSchema = z.discriminatedUnion("kind", [
  strictSection({
    /** Native tool calls (OpenAI `tools` / `tool_calls`). */
    kind: z.literal("tool-calls"),
  }),
  strictSection({
    /** A text protocol parsed by rules, e.g. AgentBench's "Action: Operation" + sql block. */
    kind: z.literal("text"),
    /** Rules tried in order; the first that matches gives the tool call. */
    rules: z.array(textActionRuleSchema).min(1),
  }),
]);

/** What is kept in the context and how observations are cut. Fix direction `context`. */
export const contextSectionSchema = strictSection({
  /** Keep only the last N policy/observation turns (null keeps everything). */
  keepLastTurns: z.number().int().positive().nullable(),
  /** Cut each observation at N characters (null: never cut). */
  truncateObservationChars: z.number().int().positive().nullable(),
  /** Text appended where an observation was cut. */
  truncationMarker: z.string(),
  /** Keep the system, example and task messages even when older turns are dropped. */
  pinTask: z.boolean(),
  /**
   * Replace older observations by a marker once the shown history grows long (AppWorld's ReAct
   * history rule). Absent or null: observations are never replaced.
   */
  trimOlderOutputs: z
    .object({
      /** Characters the messages after the initial ones may hold before trimming starts. */
      maxChars: z.number().int().positive(),
      /** Messages at the end that are never replaced. */
      keepLastMessages: z.number().int().nonnegative(),
      /** Text that replaces a trimmed observation, e.g. "[NOT SHOWN FOR BREVITY]". */
      marker: z.string(),
    })
    .strict()
    .nullable()
    .optional(),
  /**
   * Calls the harness makes before the policy's first step, shown after the task message (e.g. each
   * column's distinct values, the failing tests' output). Absent or null: none. Added in 0.x; older
   * configs parse unchanged.
   */
  prelude: preludeSchema.nullable().optional(),
});

/** What follows a tool error or an unparsable action. Fix direction `error-recovery`. */
export const errorRecoverySectionSchema = strictSection({
  /** Rendering of a tool error. Template fields: `{error}`, `{tool}`. */
  toolErrorTemplate: z.string(),
  /** Re-prompt after an unparsable action. Template fields: `{reason}`, `{reply}`. */
  malformedActionTemplate: z.string(),
  /** How many consecutive unparsable actions are re-prompted before the episode fails. */
  maxReprompts: z.number().int().nonnegative(),
  /** Extra text appended after a tool error (e.g. a recovery suggestion); empty for none. */
  toolErrorSuffix: z.string(),
  /**
   * A note after a tool result that is not an error but gave nothing to work with (e.g. an empty SQL
   * result `[]`). Absent: such results are shown as they are.
   */
  emptyResult: z
    .object({
      /** Regular expression source matched against the whole result text. */
      pattern: regexSourceSchema,
      /** Text appended after a matching result (start it with a newline to put it on its own line). */
      suffix: z.string(),
    })
    .optional(),
  /**
   * Follow-ups after a matching result: a note naming the cause and calls the harness makes itself
   * (e.g. the distinct values of the column an empty query filtered on; a login after a 401). Absent:
   * none.
   */
  followUps: z.array(followUpSchema).optional(),
});

/** How long an episode may run. Fix direction `budget`. */
export const budgetSectionSchema = strictSection({
  /** Maximum policy calls (rounds) per episode, re-prompts included. */
  maxSteps: z.number().int().positive(),
  /** Maximum total characters of policy output per episode (null: unlimited). */
  maxOutputChars: z.number().int().positive().nullable(),
});

/** One step of a macro tool: a call of an environment tool with templated arguments. */
export const macroStepSchema = strictSection({
  /** Environment tool to call. */
  tool: z.string(),
  /** Arguments; string values may use `{param}` template fields filled from the macro's arguments. */
  arguments: z.record(z.string(), z.unknown()),
});

/** A tool the harness builds from environment tools. */
export const macroToolSchema = strictSection({
  /** Name offered to the policy. */
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/),
  /** Description offered to the policy. */
  description: z.string(),
  /** JSON Schema of its arguments. */
  parameters: jsonSchemaSchema,
  /** Calls made in order; their outputs are joined with blank lines. */
  steps: z.array(macroStepSchema).min(1),
});

/** Which tools the policy gets. Fix direction `tool-exposure`. */
export const toolsSectionSchema = strictSection({
  /** Environment tools exposed, by name (null exposes all). */
  expose: z.array(z.string()).nullable(),
  /** Macro tools built from environment tools. */
  macros: z.array(macroToolSchema),
});

/** A check before the final answer is accepted. Fix direction `verification`. */
export const verificationSectionSchema = strictSection({
  /** Whether the check runs. */
  enabled: z.boolean(),
  /**
   * Shown instead of submitting the first time the policy submits. Template fields `{answer}`. The next
   * submit is accepted.
   */
  prompt: z.string(),
  /** How many times per episode a submit is held back for checking. */
  maxChecks: z.number().int().nonnegative(),
  /**
   * Calls the check makes when it holds a submit (run the tests, read back the changed rows); their
   * results are shown below `prompt`. Absent or null: the prompt alone.
   */
  calls: checkCallsSchema.nullable().optional(),
  /**
   * A non-terminal call that also counts as a submit for the check, matched on one argument (AppWorld
   * completes a task inside code: `apis.supervisor.complete_task(` in `execute`'s `code`). Absent: only
   * terminal tools are submits.
   */
  submitMatch: z
    .strictObject({
      /** The tool. */
      tool: z.string(),
      /** The argument matched. */
      argument: z.string(),
      /** Regular expression source matched against the argument. */
      pattern: regexSourceSchema,
      /** Flags of the expression. */
      flags: z.string().regex(/^[dgimsuvy]*$/),
    })
    .nullable()
    .optional(),
});

/** The fix directions of directional evolution; each owns one section of the config. */
export const fixDirections = [
  "guidance",
  "action-format",
  "context",
  "error-recovery",
  "budget",
  "tool-exposure",
  "verification",
] as const;
/** A fix direction. */
export type FixDirection = (typeof fixDirections)[number];

/** The config section each fix direction may change. */
export const directionSection = {
  guidance: "prompt",
  "action-format": "actionFormat",
  context: "context",
  "error-recovery": "errorRecovery",
  budget: "budget",
  "tool-exposure": "tools",
  verification: "verification",
} as const satisfies Record<FixDirection, string>;

/**
 * A harness as data (version 1). Every section maps to one step of the runtime, and to one fix
 * direction of evolution.
 */
export const harnessConfigSchema = strictSection({
  /** Schema version of this document. */
  schemaVersion: z.literal(1),
  /** Human-readable id, e.g. `mini-swe-agent` or `sibling-context-2`. */
  id: z.string().min(1),
  /** What this harness is for. */
  description: z.string(),
  /** Prompt and hints. */
  prompt: promptSectionSchema,
  /** Action format and its parser. */
  actionFormat: actionFormatSectionSchema,
  /** Context policy. */
  context: contextSectionSchema,
  /** Error recovery. */
  errorRecovery: errorRecoverySectionSchema,
  /** Budget. */
  budget: budgetSectionSchema,
  /** Tool exposure and macros. */
  tools: toolsSectionSchema,
  /** Verification before submit. */
  verification: verificationSectionSchema,
});
/** A harness as data (version 1). */
export type HarnessConfig = z.infer<typeof harnessConfigSchema>;
/** A section name of a harness config. */
export type HarnessSectionName = Exclude<keyof HarnessConfig, "schemaVersion" | "id" | "description">;
