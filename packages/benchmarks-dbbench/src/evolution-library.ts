import type { EvolutionLibrary } from "@hs/spec";
import { dbbenchHarnessCallLibrary } from "./harness-call-directions.js";

/**
 * The hint texts of the DBBench library that the embedded policy's grammar (`@hs/grammar-dbbench`,
 * `viewGuidance`) reads, by the guidance field each one sets. The grammar's tests render each phrase
 * into a view and check the field: editing a phrase here so that the grammar no longer reads it fails
 * there.
 */
export const dbbenchHintPhrases = {
  /** Sets `queryBeforeAnswer`. */
  queryBeforeAnswer: "Run a SELECT on the table before giving the final answer.",
  /** Sets `lookAfterEmpty`. */
  lookAfterEmpty:
    "If a query returns [], the condition value may be written differently in the table; look at the rows before answering.",
  /** Sets `answerAsReturned`. */
  answerAsReturned: "Give the final answer exactly as the query returned it, as a list.",
  /** Sets `countStar`. */
  countStar: "For counting questions use COUNT(*) and answer with the number only.",
  /** Sets `modifyThenEmpty`. */
  modifyThenEmpty: "For INSERT or UPDATE tasks, execute the statement, then answer with an empty list.",
  /** Sets `previewBeforeFilter`. */
  previewBeforeFilter: "Preview the distinct values of a condition column before filtering on it.",
  /** Sets `roles`. */
  roles:
    "The value after 'to' is the new value; the rows to change or read are the ones named after 'for', 'of' or 'where'.",
  /** Sets `wholeNames`. */
  wholeNames: "Use each name or date whole, as the question writes it (the full name, not a part of it).",
} as const;

/** The tool-error suffix the grammar reads as "correct the query, do not answer" (`fixError`). */
export const dbbenchFixErrorSuffix =
  "The previous query failed; do not answer yet, correct it and run it again.";

/**
 * The notes after an empty result that the grammar reads, by what each one asks: look at how the value
 * is written (`lookAfterEmpty`), do not answer yet (`fixError` and `lookAfterEmpty`), preview the whole
 * table (`previewAfterEmpty`).
 */
export const dbbenchEmptyResultNotes = {
  /** Sets `lookAfterEmpty`. */
  lookAtValues:
    "No rows matched. The value may be written differently in the table: look at the distinct values of the column you filtered on before you answer.",
  /** Sets `lookAfterEmpty` and `fixError`. */
  doNotAnswer:
    "The query returned []. Do not answer yet: check how the value is written in that column and run the query again.",
  /** Sets `previewAfterEmpty`. */
  previewWholeTable:
    "No rows matched. The value may be in another column than the one you filtered on: preview the whole table (SELECT * with a LIMIT) to see which column holds it, then query again.",
} as const;

/**
 * The verification checks the grammar reads (`check`): against the last result (`againstLastResult`),
 * against the question, and the read-back of a change (`asksChangeCheck`).
 */
export const dbbenchCheckPrompts = {
  /** `check.againstLastResult`. */
  againstLastResult:
    "Before committing {answer}: does it match the last query result exactly? Submit again to confirm, or run another query.",
  /** A check against the question. */
  againstQuestion: "Check {answer} against the question: right column, right rows? Submit again to confirm.",
  /** `check.asksChangeCheck`. AgentBench's reply to an UPDATE is [] whether or not its WHERE matched a row. */
  readBackChange:
    "Before committing {answer}: if you changed the table, select the rows your change should have reached; if none come back, your WHERE missed them. Submit again to confirm.",
} as const;

/**
 * DBBench (AgentBench DB task) texts: hints, error suffixes and checks phrased for SQL over one table,
 * matching the benchmark's observable conventions (results shown as Python lists, answers as lists).
 */
export const dbbenchLibrary: EvolutionLibrary = {
  hints: [
    dbbenchHintPhrases.queryBeforeAnswer,
    dbbenchHintPhrases.lookAfterEmpty,
    dbbenchHintPhrases.answerAsReturned,
    "Use the column names exactly as listed in the table description, in backquotes.",
    dbbenchHintPhrases.countStar,
    dbbenchHintPhrases.modifyThenEmpty,
    dbbenchHintPhrases.previewBeforeFilter,
    dbbenchHintPhrases.roles,
    dbbenchHintPhrases.wholeNames,
  ],
  toolErrorSuffixes: [
    "Check the table and column names (use backquotes) and run a corrected query.",
    dbbenchFixErrorSuffix,
  ],
  malformedActionTemplates: [
    'Your reply could not be parsed ({reason}). Reply with "Action: Operation" and one ```sql block, or "Action: Answer" and "Final Answer: [...]".',
  ],
  verificationPrompts: [
    dbbenchCheckPrompts.againstLastResult,
    dbbenchCheckPrompts.againstQuestion,
    dbbenchCheckPrompts.readBackChange,
  ],
  // directions that change what the policy sees and can do (harness-made calls, macros, budgets)
  ...dbbenchHarnessCallLibrary,
  fenceAliases: { sql: ["sql", "SQL", "mysql"] },
  emptyResult: {
    // the raw MySQL reply of AgentBench's DB task when no row matches
    pattern: "^\\s*\\[\\s*\\]\\s*$",
    notes: [
      dbbenchEmptyResultNotes.lookAtValues,
      dbbenchEmptyResultNotes.doNotAnswer,
      dbbenchEmptyResultNotes.previewWholeTable,
    ],
  },
};
