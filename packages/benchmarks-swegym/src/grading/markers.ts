/**
 * Log markers of SWE-bench's harness (SWE-bench/SWE-bench@v4.1.0 swebench/harness/constants/__init__.py).
 * The eval script writes them and the grader looks for them: one constant for both.
 */
export const logMarkers = {
  applyPatchFail: ">>>>> Patch Apply Failed",
  applyPatchPass: ">>>>> Applied Patch",
  resetFailed: ">>>>> Reset Failed",
  testsError: ">>>>> Tests Errored",
  testsTimeout: ">>>>> Tests Timed Out",
  startTestOutput: ">>>>> Start Test Output",
  endTestOutput: ">>>>> End Test Output",
} as const;

/** Markers whose presence anywhere in a log means the patch did not count as applied (`get_logs_eval`). */
export const badLogMarkers = [
  logMarkers.applyPatchFail,
  logMarkers.resetFailed,
  logMarkers.testsError,
  logMarkers.testsTimeout,
] as const;
