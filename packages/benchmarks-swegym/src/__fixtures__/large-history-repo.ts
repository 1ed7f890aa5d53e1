import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SweInstance } from "../data/swe-instance.js";

const environment = {
  ...process.env,
  GIT_AUTHOR_NAME: "Fixture",
  GIT_AUTHOR_EMAIL: "fixture@example.invalid",
  GIT_COMMITTER_NAME: "Fixture",
  GIT_COMMITTER_EMAIL: "fixture@example.invalid",
  GIT_AUTHOR_DATE: "2024-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2024-01-01T00:00:00Z",
};

function git(args: string[], cwd: string): string {
  return execFileSync("git", args, { cwd, env: environment, encoding: "utf8", maxBuffer: 1 << 26 });
}

/** Bytes of the history's first commit: past the 8 MiB output cap when printed as a diff. */
export const largeTreeBytes = 10 * 1024 * 1024;

function writeLargeTree(repo: string): void {
  const files = 160;
  const lineCount = Math.ceil(largeTreeBytes / files / 64);
  mkdirSync(join(repo, "data"));
  for (let file = 0; file < files; file += 1) {
    const lines = Array.from({ length: lineCount }, (_, line) =>
      `VALUE_${file}_${line} = "${"x".repeat(40)}"`.padEnd(63, " "),
    );
    writeFileSync(join(repo, "data", `table_${file}.py`), `${lines.join("\n")}\n`);
  }
}

const buggy = "def add(a, b):\n    return a - b\n";
const fixed = "def add(a, b):\n    return a + b\n";
const baseTests = "def test_truth():\n    assert True\n";
const newTests = `${baseTests}\n\ndef test_add():\n    from calc import add\n    assert add(2, 3) == 5\n`;

/**
 * A mirror holding `fixture/bigcalc`: a first commit with a 10 MiB tree, then the base commit that adds
 * a small bug. Checked out one commit deep, the base commit is a root commit and the eval script's `git
 * show` prints the 10 MiB tree as a diff; with its parent it prints a few lines.
 */
export function createLargeHistoryMirror(): { mirror: string; instance: SweInstance; remove: () => void } {
  const mirror = mkdtempSync(join(tmpdir(), "hs-swegym-large-mirror-"));
  const repo = join(mirror, "fixture__bigcalc");
  mkdirSync(repo);
  git(["init", "-q", "-b", "main"], repo);
  writeLargeTree(repo);
  writeFileSync(join(repo, ".gitignore"), "__pycache__/\n");
  git(["add", "-A"], repo);
  git(["commit", "-q", "-m", "data tables"], repo);
  mkdirSync(join(repo, "tests"));
  writeFileSync(join(repo, "calc.py"), buggy);
  writeFileSync(join(repo, "tests", "test_calc.py"), baseTests);
  git(["add", "-A"], repo);
  git(["commit", "-q", "-m", "calc"], repo);
  const base = git(["rev-parse", "HEAD"], repo).trim();
  writeFileSync(join(repo, "calc.py"), fixed);
  const patch = git(["diff"], repo);
  git(["checkout", "-q", "--", "calc.py"], repo);
  writeFileSync(join(repo, "tests", "test_calc.py"), newTests);
  const testPatch = git(["diff"], repo);
  git(["checkout", "-q", "--", "tests/test_calc.py"], repo);
  const instance: SweInstance = {
    instance_id: "fixture__bigcalc-1",
    repo: "fixture/bigcalc",
    base_commit: base,
    patch,
    test_patch: testPatch,
    problem_statement: "add(2, 3) returns -1 instead of 5.",
    hints_text: "",
    created_at: "2024-01-01T00:00:00Z",
    version: "0.1",
    FAIL_TO_PASS: ["tests/test_calc.py::test_add"],
    PASS_TO_PASS: ["tests/test_calc.py::test_truth"],
  };
  return { mirror, instance, remove: () => rmSync(mirror, { recursive: true, force: true }) };
}
