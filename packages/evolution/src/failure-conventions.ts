import { InvalidInputError, regexSourceSchema } from "@hs/harness";
import { z } from "zod";

/**
 * The observable text conventions of a benchmark that the rule classifier needs: what an empty result
 * looks like, what a well-formed answer looks like. Data only; no benchmark package is imported.
 */
export const failureConventionsSchema = z.object({
  /** Name of the conventions, part of the classifier id (e.g. `dbbench`). */
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
   * an SQL UPDATE; absent when no call is known to change state.
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

/**
 * DBBench (AgentBench DB task). AgentBench prints a SQL result as the Python `str()` of the fetched
 * rows, so an empty result is `[]` (or `()`), and the v0.2 answer is a Python list after
 * "Final Answer:" (THUDM/AgentBench, src/server/tasks/dbbench/__init__.py). The FC preset's
 * `commit_final_answer` carries the answers as a list too.
 */
export const dbbenchConventions: FailureConventions = {
  id: "dbbench",
  emptyResultPattern: "^(\\[\\s*\\]|\\(\\s*\\)|\\[\\(\\s*none\\s*,?\\s*\\)\\]|none|empty set.*)$",
  answerFormatPattern: "^\\s*\\[[\\s\\S]*\\]\\s*$",
  emptyAnswerPattern: '^(\\[\\s*\\]|\\[\\s*"?none"?\\s*\\]|none)$',
  answerArgument: null,
  submitTools: ["submit", "answer", "commit_final_answer"],
  // AgentBench replies `[]` to an INSERT or UPDATE whether or not it reached a row
  changePattern: "^\\s*(insert|update|delete|replace)\\b",
};

/** Validates conventions; throws `InvalidInputError` naming the field. */
export function parseFailureConventions(value: unknown): FailureConventions {
  const result = failureConventionsSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new InvalidInputError(`invalid failure conventions: ${issue?.message ?? "invalid value"}`, {
    field: issue?.path.map(String).join(".") ?? "",
  });
}

/** The conventions known for a benchmark id (generic for unknown ones). */
export function conventionsFor(benchmarkId: string): FailureConventions {
  return benchmarkId === "dbbench" ? dbbenchConventions : genericConventions;
}
