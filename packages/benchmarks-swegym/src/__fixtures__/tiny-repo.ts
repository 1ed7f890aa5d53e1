import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
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
  return execFileSync("git", args, { cwd, env: environment, encoding: "utf8" });
}

function writeTree(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

const buggy = "def add(a, b):\n    return a - b\n\n\ndef double(a):\n    return a * 2\n";
const fixed = "def add(a, b):\n    return a + b\n\n\ndef double(a):\n    return a * 2\n";
const baseTests = "from calc import double\n\n\ndef test_double():\n    assert double(2) == 4\n";
const newTests = `${baseTests}\n\ndef test_add():\n    from calc import add\n    assert add(2, 3) == 5\n`;

/** A mirror holding `fixture/calc` with one real bug, and its instance (patch and test_patch by git diff). */
export function createTinyMirror(): { mirror: string; instance: SweInstance; remove: () => void } {
  const mirror = mkdtempSync(join(tmpdir(), "hs-swegym-mirror-"));
  const repo = join(mirror, "fixture__calc");
  mkdirSync(repo);
  git(["init", "-q", "-b", "main"], repo);
  writeTree(repo, { "calc.py": buggy, "tests/test_calc.py": baseTests, ".gitignore": "__pycache__/\n" });
  git(["add", "-A"], repo);
  git(["commit", "-q", "-m", "calc"], repo);
  const base = git(["rev-parse", "HEAD"], repo).trim();
  writeFileSync(join(repo, "calc.py"), fixed);
  const patch = git(["diff"], repo);
  git(["checkout", "-q", "--", "calc.py"], repo);
  writeFileSync(join(repo, "tests/test_calc.py"), newTests);
  const testPatch = git(["diff"], repo);
  git(["checkout", "-q", "--", "tests/test_calc.py"], repo);
  const instance: SweInstance = {
    instance_id: "fixture__calc-1",
    repo: "fixture/calc",
    base_commit: base,
    patch,
    test_patch: testPatch,
    problem_statement: "add(2, 3) returns -1 instead of 5.",
    hints_text: "",
    created_at: "2024-01-01T00:00:00Z",
    version: "0.1",
    FAIL_TO_PASS: ["tests/test_calc.py::test_add"],
    PASS_TO_PASS: ["tests/test_calc.py::test_double"],
  };
  return { mirror, instance, remove: () => rmSync(mirror, { recursive: true, force: true }) };
}

/** The spec the fixture runs with. */
export const tinySpec = { test_cmd: "python3 -m pytest -rA -p no:cacheprovider" };
