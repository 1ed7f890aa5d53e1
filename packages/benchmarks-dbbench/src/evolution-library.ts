import type { EvolutionLibrary } from "@hs/harness";

/**
 * DBBench (AgentBench DB task) texts: hints, error suffixes and checks phrased for SQL over one table,
 * matching the benchmark's observable conventions (results shown as Python lists, answers as lists).
 */
export const dbbenchLibrary: EvolutionLibrary = {
  hints: [
    "Run a SELECT on the table before giving the final answer.",
    "If a query returns [], the condition value may be written differently in the table; look at the rows before answering.",
    "Give the final answer exactly as the query returned it, as a list.",
    "Use the column names exactly as listed in the table description, in backquotes.",
    "For counting questions use COUNT(*) and answer with the number only.",
    "For INSERT or UPDATE tasks, execute the statement, then answer with an empty list.",
    "Preview the distinct values of a condition column before filtering on it.",
    "The value after 'to' is the new value; the rows to change or read are the ones named after 'for', 'of' or 'where'.",
    "Use each name or date whole, as the question writes it (the full name, not a part of it).",
  ],
  toolErrorSuffixes: [
    "Check the table and column names (use backquotes) and run a corrected query.",
    "The previous query failed; do not answer yet, correct it and run it again.",
  ],
  malformedActionTemplates: [
    'Your reply could not be parsed ({reason}). Reply with "Action: Operation" and one ```sql block, or "Action: Answer" and "Final Answer: [...]".',
  ],
  verificationPrompts: [
    "Before committing {answer}: does it match the last query result exactly? Submit again to confirm, or run another query.",
    "Check {answer} against the question: right column, right rows? Submit again to confirm.",
    // AgentBench's reply to an UPDATE is [] whether or not its WHERE matched a row
    "Before committing {answer}: if you changed the table, select the rows your change should have reached; if none come back, your WHERE missed them. Submit again to confirm.",
  ],
  macros: [],
  fenceAliases: { sql: ["sql", "SQL", "mysql"] },
  emptyResult: {
    // the raw MySQL reply of AgentBench's DB task when no row matches
    pattern: "^\\s*\\[\\s*\\]\\s*$",
    notes: [
      "No rows matched. The value may be written differently in the table: look at the distinct values of the column you filtered on before you answer.",
      "The query returned []. Do not answer yet: check how the value is written in that column and run the query again.",
      "No rows matched. The value may be in another column than the one you filtered on: preview the whole table (SELECT * with a LIMIT) to see which column holds it, then query again.",
    ],
  },
};
