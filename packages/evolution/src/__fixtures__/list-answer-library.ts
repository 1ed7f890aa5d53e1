import type { EvolutionLibrary } from "@hs/spec";

/** A library phrased for a query-then-answer protocol, with a fenced action rule. */
export const listAnswerLibrary: EvolutionLibrary = {
  hints: [
    "Run a query before giving the final answer.",
    "Give the final answer exactly as the query returned it.",
  ],
  toolErrorSuffixes: ["The previous query failed; correct it and run it again."],
  malformedActionTemplates: ["Your reply could not be parsed ({reason}). Reply with one fenced block."],
  verificationPrompts: [
    "Before committing {answer}: does it match the last result? Submit again to confirm.",
  ],
  macros: [],
  fenceAliases: { sql: ["sql", "SQL"] },
  emptyResult: {
    pattern: "^\\s*\\[\\s*\\]\\s*$",
    notes: ["No rows matched. Look at the values before answering."],
  },
};
