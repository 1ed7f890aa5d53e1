import type { EvolutionLibrary } from "@hs/spec";

/** A library that assumes nothing about the benchmark. */
export const genericLibrary: EvolutionLibrary = {
  hints: [
    "Gather the facts you need with a tool before you answer.",
    "If a tool returns nothing useful, try a different argument before answering.",
    "Answer with exactly the value you found, nothing more.",
  ],
  toolErrorSuffixes: [
    "Read the error, fix the arguments and call the tool again.",
    "Do not answer yet: correct the call and retry.",
  ],
  malformedActionTemplates: [
    "Your reply could not be parsed ({reason}). Reply again with exactly one action in the required format.",
  ],
  verificationPrompts: [
    "You are about to answer {answer}. Check it against the results you saw; submit again to confirm.",
  ],
  macros: [],
  emptyResult: null,
};
