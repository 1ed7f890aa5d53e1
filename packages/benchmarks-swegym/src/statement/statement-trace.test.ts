import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseInstances } from "../data/load-instances.js";
import { readTraceOutput, traceBeforeAfterCommand, traceStatementCommand } from "./statement-trace.js";

const data = join(import.meta.dirname, "..", "..", "data");
const instances = ["train", "heldout", "heldout-repos"].flatMap(
  (split) =>
    parseInstances(readFileSync(join(data, `${split}.jsonl`), "utf8"), `${split}.jsonl`, split).instances,
);

const repository = mkdtempSync(join(tmpdir(), "hs-swegym-trace-"));
afterAll(() => rmSync(repository, { recursive: true, force: true }));
mkdirSync(join(repository, "money"));
mkdirSync(join(repository, "tests"));
writeFileSync(join(repository, "money", "__init__.py"), "from .cents import to_cents, split\n");
writeFileSync(
  join(repository, "money", "cents.py"),
  [
    "def to_cents(text):",
    "    whole, _, part = text.partition('.')",
    "    return int(whole) * 100 + int(part[:1] or 0)",
    "",
    "def split(total, ways):",
    "    share = total // ways",
    "    return [share] * ways + [1 / 0]",
    "",
  ].join("\n"),
);
writeFileSync(join(repository, "tests", "test_cents.py"), "from money import to_cents\n");
const git = (...args: string[]) => execFileSync("git", ["-C", repository, ...args], { encoding: "utf8" });
git("init", "-q");
git("-c", "user.email=t@t", "-c", "user.name=t", "add", "-A");
git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base");

const run = (command: string) => execFileSync("bash", ["-c", command], { cwd: repository, encoding: "utf8" });
const calls = JSON.stringify(['to_cents("1.25")', "split(10, 3)"]);

describe("statement calls in task metadata", () => {
  it("every bundled task carries the calls its statement writes, each a text of the statement", () => {
    expect(instances.length).toBeGreaterThan(60);
    for (const { task, instance } of instances) {
      const written = task.metadata.statementCalls as string[];
      expect(Array.isArray(written), task.id).toBe(true);
      for (const call of written) expect(instance.problem_statement, task.id).toContain(call);
      // nothing of the grader's: no failing test's name, no line the gold patch adds
      for (const test of instance.FAIL_TO_PASS)
        expect(written.join("\n")).not.toContain(test.split("::").at(-1) as string);
    }
    // 77 of the 80 bundled statements write a call
    const withCalls = instances.filter(({ task }) => (task.metadata.statementCalls as string[]).length > 0);
    expect(withCalls.length).toBeGreaterThan(instances.length * 0.9);
  });
});

describe("the statement trace", () => {
  it("shows each call's value or traceback and the repository lines executed, tests left out", () => {
    const output = run(traceStatementCommand(calls));
    const reading = readTraceOutput(output);
    expect(reading?.outcomes).toEqual(["=> 102", "raised ZeroDivisionError: division by zero"]);
    expect(reading?.packages).toEqual(["money"]);
    expect(output).toContain('    File "money/cents.py", line 7, in split');
    const lines = reading?.lines.map((line) => `${line.file}:${line.line} x${line.hits}`);
    expect(lines).toEqual([
      "money/cents.py:2 x1",
      "money/cents.py:3 x1",
      "money/cents.py:6 x1",
      "money/cents.py:7 x1",
    ]);
    expect(reading?.lines[1]?.text).toBe("    return int(whole) * 100 + int(part[:1] or 0)");
    expect(output).not.toMatch(/tests\/|<stdin>|<string>/);
  });

  it("names the file and line when the repository no longer parses", () => {
    writeFileSync(join(repository, "money", "broken.py"), "def oops(:\n    pass\n");
    try {
      const output = run(traceStatementCommand(calls));
      expect(output).toMatch(
        /File "money\/broken\.py", line 1\n\s+def oops\(:\nthe repository does not import: SyntaxError/,
      );
      expect(readTraceOutput(output)?.lines).toEqual([]);
    } finally {
      rmSync(join(repository, "money", "broken.py"));
    }
  });

  it("before and after: the changed tree's values, then the checked-out version's, and the change kept", () => {
    const file = join(repository, "money", "cents.py");
    const original = readFileSync(file, "utf8");
    writeFileSync(file, original.replace("int(part[:1] or 0)", "int(part[:2].ljust(2, '0'))"));
    try {
      const output = run(traceBeforeAfterCommand(calls));
      const [after, before] = output.split("before the changes (checked-out version):");
      expect(after).toMatch(/^after the changes:[\s\S]*\[0\] to_cents\("1\.25"\)\n {2}=> 125\n/);
      expect(before).toMatch(/\[0\] to_cents\("1\.25"\)\n {2}=> 102\n/);
      expect(before).not.toContain("repository lines the calls executed");
      expect(readFileSync(file, "utf8")).toContain("ljust");
      expect(git("stash", "list")).toBe("");
    } finally {
      writeFileSync(file, original);
    }
    expect(run(traceBeforeAfterCommand(calls))).not.toContain("before the changes");
  });

  it("writes the calls into the script exactly, `$` patterns included", () => {
    const literal = JSON.stringify(['price("$&5")', 'cost("$\'")']);
    expect(traceStatementCommand(literal)).toContain(`calls = ${literal}\n`);
  });

  it("reads nothing from an output that holds no trace", () => {
    expect(readTraceOutput("money/cents.py:2 x1\tcode")).toBeNull();
  });
});
