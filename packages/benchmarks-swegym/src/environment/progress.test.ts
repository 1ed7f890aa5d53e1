import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Grade, Task } from "@hs/spec";
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

  /** An episode that runs `edit` and submits, or submits nothing when it is null. */
  async function episode(edit: string | null): Promise<{ grade: Grade; lines: string[] }> {
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
    if (edit !== null) {
      await environment.step({ id: "a", name: "bash", arguments: { command: edit } });
      await environment.step({ id: "b", name: "submit", arguments: {} });
    }
    const grade = await environment.grade();
    await environment.close();
    return { grade, lines };
  }

  it("prints an episode's start and its grade with the reason it did not resolve", async () => {
    const { grade, lines } = await episode("echo '# a comment' >> calc.py");
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

  it("grades an empty patch as SWE-bench does: not resolved, and no test is run", async () => {
    const { grade, lines } = await episode(null);
    expect(grade.reward).toBe(0);
    expect(grade.details).toMatchObject({ submitted: false, empty_patch: true, patch_exists: false });
    expect(grade.details).not.toHaveProperty("tests_status_map");
    expect(lines[1]).toMatch(/not resolved: empty patch: not evaluated/);
  });
});
