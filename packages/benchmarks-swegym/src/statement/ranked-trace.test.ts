import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { rankedLinesHeader, rankedTraceCommand } from "./ranked-trace.js";
import { readTraceOutput } from "./statement-trace.js";

const repository = mkdtempSync(join(tmpdir(), "hs-swegym-ranked-"));
afterAll(() => rmSync(repository, { recursive: true, force: true }));
mkdirSync(join(repository, "money"));
mkdirSync(join(repository, "tests"));
writeFileSync(join(repository, "money", "__init__.py"), "from .cents import to_cents\n");
// the negative branch (line 4) is the bug; the repository's tests only ever run positive amounts
writeFileSync(
  join(repository, "money", "cents.py"),
  [
    "def to_cents(text):",
    "    text = text.strip()",
    "    if text.startswith('-'):",
    "        return to_cents(text[1:])",
    "    whole, _, part = text.partition('.')",
    "    return int(whole) * 100 + int(part.ljust(2, '0')[:2] or 0)",
    "",
  ].join("\n"),
);
writeFileSync(
  join(repository, "tests", "test_cents.py"),
  [
    "from money import to_cents",
    "def test_whole_amount_is_counted_in_cents():",
    "    assert to_cents('3') == 300",
    "def test_fraction_is_read_to_two_places():",
    "    assert to_cents('1.25') == 125",
    "",
  ].join("\n"),
);
const git = (...args: string[]) => execFileSync("git", ["-C", repository, ...args], { encoding: "utf8" });
git("init", "-q");
git("-c", "user.email=t@t", "-c", "user.name=t", "add", "-A");
git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base");
const run = (command: string) => execFileSync("bash", ["-c", command], { cwd: repository, encoding: "utf8" });

describe("the ranked statement trace", () => {
  it("ranks first the lines the calls run that the passing tests never run, and shows no test", () => {
    const output = run(rankedTraceCommand(JSON.stringify(['to_cents("-1.50")'])));
    const reading = readTraceOutput(output);
    expect(reading?.outcomes).toEqual(["=> 150"]);
    expect(output).toContain(`${rankedLinesHeader} (2 tests passed, 0 failed):`);
    expect(reading?.lines[0]).toMatchObject({ file: "money/cents.py", line: 4 });
    expect(reading?.lines.map((line) => line.line).sort()).toEqual([2, 3, 4, 5, 6]);
    // the trace's own listing is off: each executed line is shown once
    expect(output).not.toContain("deepest calls first");
    expect(output).not.toMatch(/test_whole|test_fraction|tests\/|assert to_cents/);
    expect(git("status", "--short")).toBe("");
  });

  it("still gives the calls' outcomes when the repository has no test to run", () => {
    rmSync(join(repository, "tests"), { recursive: true });
    try {
      const output = run(rankedTraceCommand(JSON.stringify(['to_cents("2")'])));
      expect(output).toContain(`${rankedLinesHeader} (0 tests passed, 0 failed):`);
      expect(readTraceOutput(output)?.outcomes).toEqual(["=> 200"]);
    } finally {
      git("checkout", "-q", "--", "tests");
    }
  });
});
