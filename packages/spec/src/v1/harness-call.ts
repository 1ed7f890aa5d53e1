import { z } from "zod";
import { strictSection } from "./strict-object.js";

/** A JavaScript regular expression source (checked where it is compiled). */
const patternSchema = z.string().refine(
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

/**
 * Where the named capture groups of a harness call's template come from: a regular expression matched
 * against one argument of a policy call, or against the text of its result. A call whose captures are
 * missing (the expression does not match) is not made.
 */
export const captureSourceSchema = strictSection({
  /** Match against an argument of the call (`argument`) or against its result text (`result`). */
  source: z.enum(["argument", "result"]),
  /** The argument's name when `source` is `argument` (e.g. `query`, `code`, `command`). */
  argument: z.string().optional(),
  /** Regular expression source; its named groups become template fields `{name}`. */
  pattern: patternSchema,
  /** Flags of the expression (`s`, `i`, `m`...). */
  flags: z.string().regex(/^[dgimsuvy]*$/),
});
/** Where a harness call's captures come from. */
export type CaptureSource = z.infer<typeof captureSourceSchema>;

/**
 * A tool call the harness makes by itself (not the policy): an environment tool with templated
 * arguments. String arguments may use `{metadata.KEY}` (the task's public metadata), `{name}` (a named
 * capture of the rule's capture source) and `{item}` (with `each`).
 */
export const harnessCallSchema = strictSection({
  /** Environment tool to call. */
  tool: z.string(),
  /** Arguments with template fields. */
  arguments: z.record(z.string(), z.unknown()),
  /**
   * A task metadata key holding a list (e.g. `headers`): one call per element, `{item}` holding it.
   * Absent: one call.
   */
  each: z.string().optional(),
  /** Most calls made for `each` (the first elements are taken). */
  maxEach: z.number().int().positive().optional(),
});
/** A tool call the harness makes by itself. */
export type HarnessCall = z.infer<typeof harnessCallSchema>;

/**
 * Calls the harness makes before the policy's first step (fix direction `context`: what the policy
 * sees). Their results are shown in one user message after the task message, and recorded on the
 * trajectory as harness calls, never as policy actions.
 */
export const preludeSchema = strictSection({
  /** Text before the results (e.g. "Before you start, the harness looked at the table:"). */
  header: z.string(),
  /** Calls made in order. */
  calls: z.array(harnessCallSchema).min(1),
});
/** Calls the harness makes before the policy's first step. */
export type Prelude = z.infer<typeof preludeSchema>;

/**
 * A follow-up (fix direction `error-recovery`): after a policy call whose result matches, the harness
 * names the cause and makes calls of its own, shown in a message after the result.
 */
export const followUpSchema = strictSection({
  /** Policy tools it follows (absent: any tool). */
  tools: z.array(z.string()).optional(),
  /** Regular expression matched against the result text (e.g. an empty SQL result, a 401). */
  resultPattern: patternSchema,
  /** Flags of `resultPattern`. */
  resultFlags: z.string().regex(/^[dgimsuvy]*$/),
  /** Where the calls' template captures come from (the triggering call or its result). */
  capture: captureSourceSchema.optional(),
  /** The note naming the cause; template fields are the captures and `{metadata.KEY}`. */
  note: z.string(),
  /** Calls made after the note (may be empty: the note alone). */
  calls: z.array(harnessCallSchema),
  /** How many times per episode it fires. */
  maxPerEpisode: z.number().int().positive(),
  /**
   * The matching result it first fires on (absent: 1, the first): 3 waits until the pattern has matched
   * three results of the episode, e.g. the third search that found nothing.
   */
  fromMatch: z.number().int().positive().optional(),
});
/** A follow-up after a matching result. */
export type FollowUp = z.infer<typeof followUpSchema>;

/**
 * Calls a verification makes before a held submit (fix direction `verification`): e.g. run the tests,
 * read back the rows the last change reached. Captures come from the most recent policy call of
 * `captureTool` that matches `capture`; their results are shown below the check's prompt.
 */
export const checkCallsSchema = strictSection({
  /** The policy tool whose most recent matching call gives the captures (absent: none needed). */
  captureTool: z.string().optional(),
  /** Where the captures come from in that call. */
  capture: captureSourceSchema.optional(),
  /** Calls made in order. */
  calls: z.array(harnessCallSchema).min(1),
});
/** Calls a verification makes before a held submit. */
export type CheckCalls = z.infer<typeof checkCallsSchema>;
