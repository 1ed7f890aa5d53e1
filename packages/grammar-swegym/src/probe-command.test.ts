import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { probeCommand, rewriteKey } from "./commands.js";

const directory = mkdtempSync(join(tmpdir(), "hs-probe-command-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const core = join(directory, "pkg", "core.py");
const source = "def step(value):\n    return value + 1\n";
mkdirSync(join(directory, "pkg"));
writeFileSync(join(directory, "pkg", "__init__.py"), "from .core import step\n");
writeFileSync(core, source);

describe("a probe", () => {
  it("imports each rewrite without writing the file, whatever bytecode a test run left beside it", () => {
    // a pyc of the original, as a test run leaves it; a rewrite of the same length written within
    // the same second would pass its mtime-and-size check and import the original's code
    execFileSync("python3", ["-m", "py_compile", core], { cwd: directory });
    const before = statSync(core).mtimeMs;
    const command = probeCommand(["pkg"], ["step(1)"], "pkg/core.py", [
      {
        line: 2,
        original: "    return value + 1",
        rewrites: ["    return value + 2", "    return value - 1"],
      },
    ]);
    const output = execFileSync("bash", ["-c", command], { cwd: directory, encoding: "utf8" });
    expect(output).toContain("original: return value + 1\n  [0] => 2");
    expect(output).toContain("rewrite: return value + 2\n  [0] => 3");
    expect(output).toContain("rewrite: return value - 1\n  [0] => 0");
    expect(readFileSync(core, "utf8")).toBe(source);
    expect(statSync(core).mtimeMs).toBe(before);
  });

  it("prints a two-line rewrite as its key, one line", () => {
    const guarded = "    if value:\n        return value + 1";
    const command = probeCommand(["pkg"], ["step(0)"], "pkg/core.py", [
      { line: 2, original: "    return value + 1", rewrites: [guarded] },
    ]);
    const output = execFileSync("bash", ["-c", command], { cwd: directory, encoding: "utf8" });
    expect(rewriteKey(guarded)).toBe("if value: \\n return value + 1");
    expect(output).toContain(`rewrite: ${rewriteKey(guarded)}\n  [0] => None`);
  });
});
