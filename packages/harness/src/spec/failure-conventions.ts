import { z } from "zod";
import { regexSourceSchema } from "./harness-config.js";

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
});
/** A benchmark's observable text conventions for failure rules. */
export type FailureConventions = z.infer<typeof failureConventionsSchema>;

/** Conventions that assume nothing about the benchmark beyond the trajectory itself. */
export const genericConventions: FailureConventions = {
  id: "generic",
  emptyResultPattern: "^(|\\[\\s*\\]|\\(\\s*\\)|none|null|no results?\\.?|empty set.*)$",
  answerFormatPattern: null,
  emptyAnswerPattern: "^(|\\[\\s*\\]|none|null|no answer|0 rows?)$",
  answerArgument: null,
  submitTools: ["submit"],
};
