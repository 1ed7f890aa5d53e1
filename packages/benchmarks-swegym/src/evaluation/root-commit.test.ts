import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLargeHistoryMirror, largeTreeBytes } from "../__fixtures__/large-history-repo.js";
import { parseLogPytest } from "../grading/log-parsers.js";
import { createLocalRuntime } from "../runtime/local-runtime.js";
import { defaultCommandLimits } from "../runtime/workspace.js";
import { runEvaluation } from "./run-evaluation.js";

const fixture = createLargeHistoryMirror();
const scratch = mkdtempSync(join(tmpdir(), "hs-swegym-scratch-"));
afterAll(() => {
  fixture.remove();
  rmSync(scratch, { recursive: true, force: true });
});
const runtime = createLocalRuntime({ mirrorDirectory: fixture.mirror, scratchDirectory: scratch });
const spec = { test_cmd: "python3 -m pytest -rA -p no:cacheprovider" };

describe("the eval script's git show on a repository with history", () => {
  it("the fixture's first commit is larger than the output cap", () => {
    expect(largeTreeBytes).toBeGreaterThan(defaultCommandLimits.maxOutputBytes);
  });

  it("the workspace has the base commit's parent, so git show prints only the base commit's change", async () => {
    const workspace = await runtime.createWorkspace({
      instanceId: fixture.instance.instance_id,
      repo: fixture.instance.repo,
      baseCommit: fixture.instance.base_commit,
    });
    try {
      const show = await workspace.run("git show | wc -c");
      expect(Number(show.output.trim())).toBeLessThan(10_000);
      const parents = await workspace.run("git rev-list --count HEAD");
      expect(parents.output.trim()).toBe("2");
    } finally {
      await workspace.close();
    }
  });

  it("the gold patch resolves: the log stays under the cap and holds both markers", async () => {
    const result = await runEvaluation({
      instance: fixture.instance,
      spec,
      parser: parseLogPytest,
      patch: fixture.instance.patch,
      runtime,
      timeLimitMs: 120_000,
      condaEnvironment: null,
    });
    expect(result.log.length).toBeLessThan(1024 * 1024);
    expect(result.log).not.toContain(">>>>> Tests Errored");
    expect(result.statusMap).toMatchObject({
      "tests/test_calc.py::test_add": "PASSED",
      "tests/test_calc.py::test_truth": "PASSED",
    });
    expect(result.report.resolved).toBe(true);
  });
});
