import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Task } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { createTinyMirror, tinySpec } from "../__fixtures__/tiny-repo.js";
import { createSweGym } from "../create-swegym.js";
import { ProgressReporter } from "./progress.js";

describe("ProgressReporter", () => {
  it("prints start and end per episode, and running episodes after every silent heartbeat", () => {
    let now = 0;
    const lines: string[] = [];
    const progress = new ProgressReporter(
      (line) => lines.push(line),
      10_000,
      () => now,
    );
    progress.start("a#1", "workspace in 0.1 s, bubblewrap");
    now = 4_000;
    progress.doing("a#1", 'running "pytest"');
    progress.beat();
    expect(lines).toHaveLength(1);
    now = 12_000;
    progress.beat();
    expect(lines[1]).toBe('swegym: running 1: a#1 running "pytest" for 8.0 s (episode 12.0 s)');
    now = 15_000;
    progress.beat();
    expect(lines).toHaveLength(2);
    progress.doing("a#1", "grading");
    now = 23_000;
    progress.beat();
    expect(lines[2]).toBe("swegym: running 1: a#1 grading for 8.0 s (episode 23.0 s)");
    progress.finish("a#1", "not resolved: FAIL_TO_PASS failing 1: t.py::x (FAILED)");
    progress.finish("a#1", "closed");
    expect(lines.slice(3)).toEqual([
      "swegym: a#1 not resolved: FAIL_TO_PASS failing 1: t.py::x (FAILED) in 23.0 s",
    ]);
    expect(lines[0]).toBe("swegym: a#1 started (workspace in 0.1 s, bubblewrap)");
  });
});

describe("createSweGym's onProgress", () => {
  const fixture = createTinyMirror();
  const directory = mkdtempSync(join(tmpdir(), "hs-swegym-progress-"));
  afterAll(() => {
    fixture.remove();
    rmSync(directory, { recursive: true, force: true });
  });

  it("prints an episode's start and its grade with the reason it did not resolve", async () => {
    const data = join(directory, "rows.jsonl");
    writeFileSync(data, `${JSON.stringify(fixture.instance)}\n`);
    const lines: string[] = [];
    const swegym = await createSweGym({
      repos: fixture.mirror,
      python: "/usr/bin/python3",
      specs: { "fixture/calc": { "*": tinySpec } },
      onProgress: (line) => lines.push(line),
    });
    const { tasks } = await swegym.loadTasks({ path: data });
    const environment = await swegym.createEnvironment(tasks[0] as Task, { seed: 1 });
    await environment.reset();
    const grade = await environment.grade();
    await environment.close();
    expect(grade.details?.failure_reason).toBe(
      "FAIL_TO_PASS failing 1: tests/test_calc.py::test_add (FAILED)",
    );
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^swegym: fixture__calc-1#\d+ started \(workspace in \d+\.\d s, (bubblewrap|none)\)$/,
    );
    expect(lines[1]).toMatch(
      /^swegym: fixture__calc-1#\d+ not resolved: FAIL_TO_PASS failing 1: tests\/test_calc.py::test_add \(FAILED\) in \d+\.\d s$/,
    );
  });
});
