import type { FailureConventions } from "@hs/spec";

/**
 * What SWE-Gym episodes look like to failure rules: empty command output, the submit tools, edits, and
 * the edit / test / revert cycles of a repository task read from pytest's output (`path:N:` and
 * `File "path", line N` frames; `E   SomeError` lines) and from the line-edit tool's own report
 * (`edited path:N: old -> new`).
 */
export const sweGymConventions: FailureConventions = {
  id: "swegym",
  emptyResultPattern: "^<returncode>\\d+</returncode>\\s*<output>\\s*</output>$",
  answerFormatPattern: null,
  emptyAnswerPattern: "^$",
  answerArgument: null,
  submitTools: ["submit"],
  changePattern:
    "(\\bsed\\s+-i\\b|>\\s*\\S+\\.py\\b|\\bstr_replace\\b|\\bcreate\\b|\\binsert\\b|\\bpatch\\b|\\bgit apply\\b)",
  modeRules: [
    {
      kind: "edit-test",
      testCallPattern: "\\bpytest\\b",
      failedRunPattern: "(\\b\\d+ (failed|errors?)\\b|^(FAILED|ERROR)\\b)",
      assertionPattern: "^E\\s+(AssertionError\\b|assert\\s)",
      editResultPattern: "^edited (\\S+?):(\\d+):",
      revertCallPattern: "\\bgit checkout\\b",
      nonSourcePathPattern: "((^|/)tests?/|(^|/)test_[^/]*\\.py$|^<|/(site|dist)-packages/|/lib/python)",
      modes: {
        editBrokeFile: "edit-broke-file",
        editedUnnamedLine: "edited-unnamed-line",
        neverRanFailingTests: "never-ran-failing-tests",
        submittedFailingTests: "submitted-failing-tests",
        unlocatedFailure: "unlocated-failure",
        emptySubmission: "empty-submission",
      },
    },
  ],
  modePriority: [
    "budget-exhausted",
    "edit-broke-file",
    "edited-unnamed-line",
    "never-ran-failing-tests",
    "submitted-failing-tests",
    "unlocated-failure",
    "empty-submission",
  ],
};
