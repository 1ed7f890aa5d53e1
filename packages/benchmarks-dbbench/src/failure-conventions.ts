import type { FailureConventions } from "@hs/harness";

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
