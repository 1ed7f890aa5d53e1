import type { FailureConventions } from "@hs/spec";

/**
 * DBBench (AgentBench DB task). AgentBench prints a SQL result as the Python `str()` of the fetched
 * rows, so an empty result is `[]` (or `()`), and the v0.2 answer is a Python list after
 * "Final Answer:" (THUDM/AgentBench, src/server/tasks/dbbench/__init__.py); what v0.2 grades is the text
 * after "Final Answer", so the committed answer keeps its leading colon. The FC preset's
 * `commit_final_answer` carries the answers as a list too. A zero count or a NULL aggregate of a filter
 * that matched nothing reads as an empty result.
 */
export const dbbenchConventions: FailureConventions = {
  id: "dbbench",
  emptyResultPattern: "^(\\[\\s*\\]|\\(\\s*\\)|\\[\\(\\s*(none|0)\\s*,?\\s*\\)\\]|none|empty set.*)$",
  answerFormatPattern: "^\\s*:?\\s*\\[[\\s\\S]*\\]\\s*$",
  emptyAnswerPattern: '^:?\\s*(\\[\\s*\\]|\\[\\s*"?none"?\\s*\\]|none)$',
  answerArgument: null,
  submitTools: ["submit", "answer", "commit_final_answer"],
  // AgentBench replies `[]` to an INSERT or UPDATE whether or not it reached a row
  changePattern: "^\\s*(insert|update|delete|replace)\\b",
  modeRules: [
    {
      kind: "sql",
      instructionPattern: "^([\\s\\S]*?)\\s*The name of this table is",
      headersPattern: "the headers of this table are ([^\\n]*?)\\.?\\s*$",
      questionPattern:
        "(\\?\\s*$|^\\s*(what|which|who|whom|whose|how|when|where|name|list|tell|give|count|add up|is|was|are|were|does|did|do)\\b)",
      updatePattern: "\\b(update[sd]?|updating|modif(y|ied|ies)|chang(e|ed|es|ing)|set)\\b",
      linkWords: [
        "the",
        "a",
        "an",
        "of",
        "as",
        "for",
        "to",
        "is",
        "was",
        "were",
        "are",
        "be",
        "being",
        "with",
        "in",
        "at",
        "and",
        "equals",
        "equal",
        "column",
        "columns",
        "field",
        "fields",
      ],
      modes: {
        wrongStatement: "wrong-statement",
        valueMismatch: "value-mismatch",
        changedWrongRows: "changed-wrong-rows",
        wrongColumn: "wrong-column",
      },
    },
  ],
  modePriority: [
    "budget-exhausted",
    "wrong-statement",
    "value-mismatch",
    "changed-wrong-rows",
    "wrong-column",
    "empty-result-misread",
    "unchecked-change",
    "wrong-target",
  ],
};
