import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTinyMirror, tinySpec } from "../__fixtures__/tiny-repo.js";
import { parseLogPytest } from "../grading/log-parsers.js";
import { createLocalRuntime } from "../runtime/local-runtime.js";
import { runEvaluation } from "./run-evaluation.js";

const fixture = createTinyMirror();
const scratch = mkdtempSync(join(tmpdir(), "hs-swegym-scratch-"));
afterAll(() => {
  fixture.remove();
  rmSync(scratch, { recursive: true, force: true });
});
const runtime = createLocalRuntime({ mirrorDirectory: fixture.mirror, scratchDirectory: scratch });
const evaluate = (patch: string, timeLimitMs = 60_000, spec = tinySpec) =>
  runEvaluation({
    instance: fixture.instance,
    spec,
    parser: parseLogPytest,
    patch,
    runtime,
    timeLimitMs,
    condaEnvironment: null,
  });
const episodeDirectories = () => readdirSync(scratch);

describe("runEvaluation (local runtime, real git and pytest)", () => {
  it("resolves with the gold patch: F2P passes, P2P holds, between the markers", async () => {
    const before = episodeDirectories();
    const result = await evaluate(fixture.instance.patch);
    expect(result.log).toContain(">>>>> Applied Patch");
    expect(result.log).toContain("+ : '>>>>> Start Test Output'");
    expect(result.statusMap).toMatchObject({
      "tests/test_calc.py::test_add": "PASSED",
      "tests/test_calc.py::test_double": "PASSED",
    });
    expect(result.report.resolved).toBe(true);
    expect(episodeDirectories()).toEqual(before);
  });

  it("does not resolve with the empty patch, and the F2P test is seen failing", async () => {
    const result = await evaluate("");
    expect(result.statusMap["tests/test_calc.py::test_add"]).toBe("FAILED");
    expect(result.report).toMatchObject({ patch_successfully_applied: true, resolved: false });
  });

  it("reports a patch that applies by none of the three commands", async () => {
    const bad =
      "diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n-def nothing_like_this():\n+def x():\n     pass\n";
    const result = await evaluate(bad);
    expect(result.log).toContain(">>>>> Patch Apply Failed");
    expect(result.report).toMatchObject({
      patch_exists: true,
      patch_successfully_applied: false,
      resolved: false,
    });
  });

  it("applies a patch with shifted context by patch --fuzz after git apply refuses it", async () => {
    const shifted = fixture.instance.patch
      .replace("@@ -1,5 +1,5 @@", "@@ -3,5 +3,5 @@")
      .replace(" \n \n def double(a):", " \n \n def double(a):");
    const result = await evaluate(shifted);
    expect(result.report.resolved).toBe(true);
  });

  it("times out a hanging test command and removes the workspace", async () => {
    const before = episodeDirectories();
    const result = await evaluate(fixture.instance.patch, 1500, {
      test_cmd: "sleep 30; python3 -m pytest -rA",
    });
    expect(result.timedOut).toBe(true);
    expect(result.log).toContain(">>>>> Tests Timed Out");
    expect(result.report.resolved).toBe(false);
    expect(episodeDirectories()).toEqual(before);
    expect(existsSync(fixture.mirror)).toBe(true);
  });
});
