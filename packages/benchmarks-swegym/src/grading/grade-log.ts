import type { LogParser, StatusMap } from "./log-parsers.js";
import { badLogMarkers, logMarkers } from "./markers.js";

/** What a log says: the status map, and whether the patch counts as applied. */
export interface LogEvaluation {
  /** Test id -> status word. */
  statusMap: StatusMap;
  /** False when a failure marker is present or the test-output markers are missing. */
  found: boolean;
}

/**
 * `get_logs_eval` (SWE-bench@v4.1.0 swebench/harness/grading.py): a failure marker anywhere, or a
 * missing start/end marker, means nothing was found; otherwise the text between the markers is parsed,
 * and the whole log when that gives no test.
 */
export function evaluateLog(log: string, parser: LogParser): LogEvaluation {
  if (badLogMarkers.some((marker) => log.includes(marker))) return { statusMap: {}, found: false };
  if (!(log.includes(logMarkers.startTestOutput) && log.includes(logMarkers.endTestOutput))) {
    return { statusMap: {}, found: false };
  }
  const between = (log.split(logMarkers.startTestOutput)[1] ?? "").split(logMarkers.endTestOutput)[0] ?? "";
  const statusMap = parser(between);
  if (Object.keys(statusMap).length > 0) return { statusMap, found: true };
  return { statusMap: parser(log), found: true };
}

/** `test_passed`: PASSED or XFAIL. */
export function testPassed(testId: string, map: StatusMap): boolean {
  const status = map[testId];
  return status === "PASSED" || status === "XFAIL";
}

/** `test_failed`: missing, FAILED or ERROR (a SKIPPED test is neither passed nor failed). */
export function testFailed(testId: string, map: StatusMap): boolean {
  if (!Object.hasOwn(map, testId)) return true;
  const status = map[testId];
  return status === "FAILED" || status === "ERROR";
}

/** Successes and failures of one test list. */
export interface TestOutcomes {
  /** Tests that passed. */
  success: string[];
  /** Tests that failed or are missing. */
  failure: string[];
}

/** `tests_status` of SWE-bench's report. */
export interface TestsStatus {
  /** The FAIL_TO_PASS tests. */
  FAIL_TO_PASS: TestOutcomes;
  /** The PASS_TO_PASS tests. */
  PASS_TO_PASS: TestOutcomes;
  /** Not computed (SWE-bench computes it only with `calculate_to_fail`). */
  FAIL_TO_FAIL: TestOutcomes;
  /** Not computed (SWE-bench computes it only with `calculate_to_fail`). */
  PASS_TO_FAIL: TestOutcomes;
}

function outcomesOf(tests: readonly string[], map: StatusMap): TestOutcomes {
  const outcomes: TestOutcomes = { success: [], failure: [] };
  for (const test of tests) {
    if (testPassed(test, map)) outcomes.success.push(test);
    else if (testFailed(test, map)) outcomes.failure.push(test);
  }
  return outcomes;
}

/** `get_eval_tests_report` with `EvalType.PASS_AND_FAIL` (every Python repository). */
export function evalTestsReport(
  map: StatusMap,
  gold: { FAIL_TO_PASS: readonly string[]; PASS_TO_PASS: readonly string[] },
): TestsStatus {
  return {
    FAIL_TO_PASS: outcomesOf(gold.FAIL_TO_PASS, map),
    PASS_TO_PASS: outcomesOf(gold.PASS_TO_PASS, map),
    FAIL_TO_FAIL: { success: [], failure: [] },
    PASS_TO_FAIL: { success: [], failure: [] },
  };
}

function share(outcomes: TestOutcomes): number {
  const total = outcomes.success.length + outcomes.failure.length;
  return total === 0 ? 1 : outcomes.success.length / total;
}

/** `compute_fail_to_pass`: share of FAIL_TO_PASS passed, 1 when none counted. */
export function computeFailToPass(report: TestsStatus): number {
  return share(report.FAIL_TO_PASS);
}

/** `compute_pass_to_pass`: share of PASS_TO_PASS passed, 1 when none counted. */
export function computePassToPass(report: TestsStatus): number {
  return share(report.PASS_TO_PASS);
}

/** SWE-bench's `ResolvedStatus`. */
export type ResolvedStatus = "RESOLVED_FULL" | "RESOLVED_PARTIAL" | "RESOLVED_NO";

/** `get_resolution_status`: FULL when f2p = p2p = 1, PARTIAL when 0 < f2p < 1 and p2p = 1, else NO. */
export function resolutionStatus(report: TestsStatus): ResolvedStatus {
  const f2p = computeFailToPass(report);
  const p2p = computePassToPass(report);
  if (f2p === 1 && p2p === 1) return "RESOLVED_FULL";
  if (f2p < 1 && f2p > 0 && p2p === 1) return "RESOLVED_PARTIAL";
  return "RESOLVED_NO";
}

/** One instance's entry of SWE-bench's `report.json`, under its key names. */
export interface InstanceReport {
  /** The prediction's patch was null. */
  patch_is_None: boolean;
  /** A patch (possibly empty) was given. */
  patch_exists: boolean;
  /** The log had both markers and no failure marker. */
  patch_successfully_applied: boolean;
  /** FULL resolution. */
  resolved: boolean;
  /** Per-list outcomes (with `include_tests_status`). */
  tests_status?: TestsStatus;
}

/** `get_eval_report` for one instance: a null patch is not graded; the log decides the rest. */
export function evalReport(
  patch: string | null,
  log: string,
  parser: LogParser,
  gold: { FAIL_TO_PASS: readonly string[]; PASS_TO_PASS: readonly string[] },
): InstanceReport {
  const report: InstanceReport = {
    patch_is_None: false,
    patch_exists: false,
    patch_successfully_applied: false,
    resolved: false,
  };
  if (patch === null) return { ...report, patch_is_None: true };
  report.patch_exists = true;
  const evaluation = evaluateLog(log, parser);
  if (!evaluation.found) return report;
  report.patch_successfully_applied = true;
  const tests = evalTestsReport(evaluation.statusMap, gold);
  report.resolved = resolutionStatus(tests) === "RESOLVED_FULL";
  report.tests_status = tests;
  return report;
}
