import { describe, expect, it } from "vitest";
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
