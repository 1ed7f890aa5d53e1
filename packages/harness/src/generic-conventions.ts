import type { FailureConventions } from "@hs/spec";

/** Conventions that assume nothing about the benchmark beyond the trajectory itself. */
export const genericConventions: FailureConventions = {
  id: "generic",
  emptyResultPattern: "^(|\\[\\s*\\]|\\(\\s*\\)|none|null|no results?\\.?|empty set.*)$",
  answerFormatPattern: null,
  emptyAnswerPattern: "^(|\\[\\s*\\]|none|null|no answer|0 rows?)$",
  answerArgument: null,
  submitTools: ["submit"],
};
