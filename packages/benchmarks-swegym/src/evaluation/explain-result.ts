import type { InstanceReport } from "../grading/grade-log.js";
import type { LogParser, StatusMap } from "../grading/log-parsers.js";
import { logMarkers } from "../grading/markers.js";

/** What an explanation reads of one evaluation. */
export interface ExplainedEvaluation {
  /** SWE-bench's report. */
  report: InstanceReport;
  /** The full log. */
  log: string;
  /** The eval script hit its time limit. */
  timedOut: boolean;
  /** The eval script's output passed the output cap and the script was killed. */
  outputLimited: boolean;
}

/** Limits the run was held to, named in the explanation. */
export interface EvaluationLimits {
  /** Milliseconds of the grading run. */
  timeLimitMs: number;
  /** Bytes of output kept. */
  maxOutputBytes: number;
}

/** Test results printed after the start marker, read whatever else the log holds (a cut log included). */
export function observedStatusMap(log: string, parser: LogParser): StatusMap {
  const start = log.indexOf(logMarkers.startTestOutput);
  if (start < 0) return {};
  const after = log.slice(start + logMarkers.startTestOutput.length);
  return parser(after.split(logMarkers.endTestOutput)[0] ?? after);
}

function testOutput(log: string): string | null {
  const start = log.indexOf(logMarkers.startTestOutput);
  if (start < 0) return null;
  return log.slice(start).split(logMarkers.endTestOutput)[0] ?? "";
}

const mebibytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

/** pytest's refusal of its command line (its usage line starts with ERROR, which the parser reads as a result). */
function pytestRefusal(output: string): string | null {
  const unrecognized = /error: unrecognized arguments: ([^\n]*)/.exec(output);
  if (unrecognized === null) return null;
  const hint = /(^|\s)-n/.test(unrecognized[1] ?? "")
    ? " (-n0 needs pytest-xdist in the test command's Python)"
    : "";
  return `pytest refused its arguments "${unrecognized[1]?.trim()}"${hint}: no test ran`;
}

/** Why tests that ran gave no result line: a command that did not start, an import failure or a missing file. */
function whyNoResults(output: string): string {
  const notStarted = /^(.*(?:: not found|: No such file or directory|command not found))$/m.exec(output);
  if (notStarted !== null) {
    return `the test command did not start (${notStarted[1]?.trim()}): is the interpreter visible to commands? (under bubblewrap /tmp is private)`;
  }
  const missing = /No module named '?([\w.]+)'?/.exec(output);
  if (missing !== null) return `the tests ran but could not import ${missing[1]}: no test result was printed`;
  const notFound = /ERROR: file or directory not found: ([^\n]*)/.exec(output);
  if (notFound !== null) return `pytest found no test file ${notFound[1]?.trim()}`;
  return "the tests ran but printed no result line the log parser reads (pytest -rA summary lines)";
}

function failingTests(report: InstanceReport, map: StatusMap): string {
  const status = report.tests_status;
  if (status === undefined) return "not resolved";
  const describe = (test: string) => `${test} (${map[test] ?? "missing from the output"})`;
  const parts: string[] = [];
  for (const list of ["FAIL_TO_PASS", "PASS_TO_PASS"] as const) {
    const failures = status[list].failure;
    if (failures.length === 0) continue;
    const shown = failures.slice(0, 5).map(describe).join(", ");
    const more = failures.length > 5 ? ` and ${failures.length - 5} more` : "";
    parts.push(`${list} failing ${failures.length}: ${shown}${more}`);
  }
  return parts.length === 0 ? "not resolved" : parts.join("; ");
}

/**
 * Why an evaluation did not resolve, in the order a reader needs it: the patch did not apply, the run
 * timed out, the output was cut at its cap (before or while the tests ran, with how many results had
 * been read), the tests ran but gave no result (pytest refused `-n0`, an import failed), or which tests
 * failed and with what status. Null when resolved.
 */
export function explainEvaluation(
  result: ExplainedEvaluation,
  parser: LogParser,
  limits: EvaluationLimits,
): string | null {
  if (result.report.resolved) return null;
  const log = result.log;
  if (log.includes(logMarkers.applyPatchFail)) {
    return "the patch did not apply (git apply, git apply --reject and patch --fuzz=5 all refused it)";
  }
  const seen = Object.keys(observedStatusMap(log, parser)).length;
  const output = testOutput(log);
  if (result.timedOut) {
    return `the grading run passed its time limit of ${limits.timeLimitMs / 1000} s (${seen} test results read before it was killed)`;
  }
  if (result.outputLimited) {
    const cap = mebibytes(limits.maxOutputBytes);
    if (output === null) {
      return `the output passed the ${cap} cap before the tests started (the eval script's git show / git diff printed the rest): no test ran`;
    }
    return `the tests ran but their output passed the ${cap} cap before the end marker: ${seen} test results were read before the cut, and a cut log counts as not applied`;
  }
  if (output === null) return "the eval script never reached the start-of-tests marker";
  if (!log.includes(logMarkers.endTestOutput)) return "the eval script never reached the end-of-tests marker";
  const refusal = pytestRefusal(output);
  if (refusal !== null) return refusal;
  if (seen === 0) return whyNoResults(output);
  return failingTests(result.report, observedStatusMap(log, parser));
}
