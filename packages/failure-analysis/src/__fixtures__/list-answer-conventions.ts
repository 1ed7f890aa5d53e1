import type { FailureConventions } from "@hs/spec";

/** Conventions of a benchmark whose results and answers are lists, as a table-query benchmark's are. */
export const listAnswerConventions: FailureConventions = {
  id: "list-answers",
  emptyResultPattern: "^(\\[\\s*\\]|\\(\\s*\\)|none|empty set.*)$",
  answerFormatPattern: "^\\s*\\[[\\s\\S]*\\]\\s*$",
  emptyAnswerPattern: '^(\\[\\s*\\]|\\[\\s*"?none"?\\s*\\]|none)$',
  answerArgument: null,
  submitTools: ["submit", "answer"],
};
