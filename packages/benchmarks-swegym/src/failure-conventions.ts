import type { FailureConventions } from "@hs/harness";

/** What SWE-Gym episodes look like to failure rules: empty command output, the submit tools, edits. */
export const sweGymConventions: FailureConventions = {
  id: "swegym",
  emptyResultPattern: "^<returncode>\\d+</returncode>\\s*<output>\\s*</output>$",
  answerFormatPattern: null,
  emptyAnswerPattern: "^$",
  answerArgument: null,
  submitTools: ["submit"],
  changePattern:
    "(\\bsed\\s+-i\\b|>\\s*\\S+\\.py\\b|\\bstr_replace\\b|\\bcreate\\b|\\binsert\\b|\\bpatch\\b|\\bgit apply\\b)",
};
