import { describe, expect, it } from "vitest";
import {
  computeFailToPass,
  computePassToPass,
  evalReport,
  evalTestsReport,
  resolutionStatus,
} from "./grade-log.js";
import { parseLogPytest } from "./log-parsers.js";

const log = (lines: string[]) =>
  ["+ : '>>>>> Start Test Output'", ...lines, "+ : '>>>>> End Test Output'"].join("\n");

describe("SWE-bench resolution", () => {
  const gold = { FAIL_TO_PASS: ["t.py::a", "t.py::b"], PASS_TO_PASS: ["t.py::c"] };

  it("is FULL when every FAIL_TO_PASS and PASS_TO_PASS test passes (XFAIL counts as passed)", () => {
    const report = evalReport(
      "diff",
      log(["PASSED t.py::a", "XFAIL t.py::b", "PASSED t.py::c"]),
      parseLogPytest,
      gold,
    );
    expect(report).toMatchObject({ patch_exists: true, patch_successfully_applied: true, resolved: true });
  });

  it("is PARTIAL when some FAIL_TO_PASS pass and PASS_TO_PASS hold", () => {
    const tests = evalTestsReport({ "t.py::a": "PASSED", "t.py::c": "PASSED" }, gold);
    expect(computeFailToPass(tests)).toBe(0.5);
    expect(resolutionStatus(tests)).toBe("RESOLVED_PARTIAL");
  });

  it("is NO when a PASS_TO_PASS test breaks, and a missing test counts as failed", () => {
    const tests = evalTestsReport({ "t.py::a": "PASSED", "t.py::b": "PASSED" }, gold);
    expect(tests.PASS_TO_PASS.failure).toEqual(["t.py::c"]);
    expect(computePassToPass(tests)).toBe(0);
    expect(resolutionStatus(tests)).toBe("RESOLVED_NO");
  });

  it("counts a SKIPPED test as neither success nor failure, so an empty share is 1", () => {
    const tests = evalTestsReport({ "t.py::a": "PASSED", "t.py::b": "PASSED", "t.py::c": "SKIPPED" }, gold);
    expect(tests.PASS_TO_PASS).toEqual({ success: [], failure: [] });
    expect(resolutionStatus(tests)).toBe("RESOLVED_FULL");
  });

  it("does not grade a null patch and does not resolve a log with a failure marker", () => {
    expect(evalReport(null, "", parseLogPytest, gold)).toMatchObject({
      patch_is_None: true,
      resolved: false,
    });
    const failed = evalReport(
      "diff",
      `>>>>> Patch Apply Failed\n${log(["PASSED t.py::a"])}`,
      parseLogPytest,
      gold,
    );
    expect(failed).toMatchObject({ patch_exists: true, patch_successfully_applied: false, resolved: false });
  });
});
