import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTinyMirror } from "../__fixtures__/tiny-repo.js";
import { parseLogPytest } from "../grading/log-parsers.js";
import { createLocalRuntime } from "../runtime/local-runtime.js";
import { explainEvaluation, observedStatusMap } from "./explain-result.js";
import { runEvaluation } from "./run-evaluation.js";

const limits = { timeLimitMs: 1_800_000, maxOutputBytes: 8 * 1024 * 1024 };
const unresolved = {
  patch_is_None: false,
  patch_exists: true,
  patch_successfully_applied: false,
  resolved: false,
};
const start = "+ : '>>>>> Start Test Output'";
const end = "+ : '>>>>> End Test Output'";
const explain = (log: string, flags: { timedOut?: boolean; outputLimited?: boolean } = {}) =>
  explainEvaluation(
    {
      report: unresolved,
      log,
      timedOut: flags.timedOut ?? false,
      outputLimited: flags.outputLimited ?? false,
    },
    parseLogPytest,
    limits,
  );

describe("explainEvaluation", () => {
  it("says the cap cut the output before the tests when git show filled it", () => {
    const log = `+ git show\ndiff --git a/x b/x\n${"+x\n".repeat(10)}\n>>>>> Tests Errored: the test output passed its size limit\n`;
    expect(explain(log, { outputLimited: true })).toBe(
      "the output passed the 8 MiB cap before the tests started (the eval script's git show / git diff printed the rest): no test ran",
    );
  });

  it("says the tests ran and counts the results read when the cap cut them", () => {
    const log = `${start}\nPASSED tests/a.py::test_one\nFAILED tests/a.py::test_two - boom\nnoise\n>>>>> Tests Errored\n`;
    expect(explain(log, { outputLimited: true })).toBe(
      "the tests ran but their output passed the 8 MiB cap before the end marker: 2 test results were read before the cut, and a cut log counts as not applied",
    );
    expect(observedStatusMap(log, parseLogPytest)).toEqual({
      "tests/a.py::test_one": "PASSED",
      "tests/a.py::test_two": "FAILED",
    });
  });

  it("names pytest's refusal of -n0 instead of 'no test output'", () => {
    const log = `${start}\n+ pytest -n0 -rA tests/a.py\nERROR: usage: pytest [options] [file_or_dir]\npytest: error: unrecognized arguments: -n0\n${end}\n`;
    expect(explain(log)).toBe(
      'pytest refused its arguments "-n0" (-n0 needs pytest-xdist in the test command\'s Python): no test ran',
    );
  });

  it("names a test command that did not start", () => {
    const log = `${start}\n+ pytest -n0 -rA t.py\n/tmp/ep/bin/pytest: 2: exec: /tmp/venv/bin/python: not found\n${end}\n`;
    expect(explain(log)).toBe(
      "the test command did not start (/tmp/ep/bin/pytest: 2: exec: /tmp/venv/bin/python: not found): is the interpreter visible to commands? (under bubblewrap /tmp is private)",
    );
  });

  it("names the time limit and a module that could not be imported", () => {
    expect(explain(`${start}\nPASSED t.py::a\n`, { timedOut: true })).toBe(
      "the grading run passed its time limit of 1800 s (1 test results read before it was killed)",
    );
    expect(explain(`${start}\nE   ModuleNotFoundError: No module named 'boto3'\n${end}\n`)).toBe(
      "the tests ran but could not import boto3: no test result was printed",
    );
  });

  it("lists failing tests with their status, missing ones as missing", () => {
    const report = {
      ...unresolved,
      patch_successfully_applied: true,
      tests_status: {
        FAIL_TO_PASS: { success: [], failure: ["t.py::a", "t.py::gone"] },
        PASS_TO_PASS: { success: ["t.py::b"], failure: [] },
        FAIL_TO_FAIL: { success: [], failure: [] },
        PASS_TO_FAIL: { success: [], failure: [] },
      },
    };
    const log = `${start}\nFAILED t.py::a - assert 1 == 2\nPASSED t.py::b\n${end}\n`;
    expect(
      explainEvaluation({ report, log, timedOut: false, outputLimited: false }, parseLogPytest, limits),
    ).toBe("FAIL_TO_PASS failing 2: t.py::a (FAILED), t.py::gone (missing from the output)");
  });
});

describe("runEvaluation's failure reason on real runs", () => {
  const fixture = createTinyMirror();
  const scratch = mkdtempSync(join(tmpdir(), "hs-swegym-scratch-"));
  afterAll(() => {
    fixture.remove();
    rmSync(scratch, { recursive: true, force: true });
  });
  const runtime = createLocalRuntime({ mirrorDirectory: fixture.mirror, scratchDirectory: scratch });
  const evaluate = (test_cmd: string, maxOutputBytes?: number) =>
    runEvaluation({
      instance: fixture.instance,
      spec: { test_cmd },
      parser: parseLogPytest,
      patch: fixture.instance.patch,
      runtime,
      timeLimitMs: 60_000,
      condaEnvironment: null,
      ...(maxOutputBytes === undefined ? {} : { maxOutputBytes }),
    });

  it("pytest without xdist refusing -n0", async () => {
    const result = await evaluate("/usr/bin/python3 -m pytest -p no:xdist -p no:cacheprovider -n0 -rA");
    expect(result.report.resolved).toBe(false);
    expect(result.failureReason).toMatch(/^pytest refused its arguments "-n0"/);
  });

  it("tests that ran and were cut by the output cap keep their results in the observed map", async () => {
    const result = await evaluate(
      "/usr/bin/python3 -m pytest -p no:cacheprovider -rA; head -c 300000 /dev/zero | tr '\\0' x; echo",
      64 * 1024,
    );
    expect(result.outputLimited).toBe(true);
    expect(result.report.patch_successfully_applied).toBe(false);
    expect(result.failureReason).toMatch(/^the tests ran but their output passed the 0.1 MiB cap/);
    expect(result.observedStatusMap).toMatchObject({ "tests/test_calc.py::test_add": "PASSED" });
  });
});
