import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { editCommand, reproduceCommand, searchCommand, showCommand } from "./commands.js";

let directory = "";
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function bash(command: string): { status: number; output: string } {
  try {
    return {
      status: 0,
      output: execFileSync("bash", ["-c", command], { cwd: directory, encoding: "utf8", stdio: "pipe" }),
    };
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string };
    return { status: failed.status, output: failed.stdout + failed.stderr };
  }
}

function repository(): void {
  directory = mkdtempSync(join(tmpdir(), "hs-grammar-commands-"));
  execFileSync("mkdir", ["-p", join(directory, "pkg")]);
  writeFileSync(join(directory, "pkg", "__init__.py"), "from .core import clamp\n");
  writeFileSync(
    join(directory, "pkg", "core.py"),
    'def clamp(value, low, high):\n    """Clamp it."""\n    if value < low:\n        return low\n    return min(value, high) + len("it\'s")\n',
  );
}

describe("editCommand", () => {
  it("replaces the line when it still reads as shown, prints the change and the region", () => {
    repository();
    const result = bash(editCommand("pkg/core.py", 3, "    if value < low:", "    if value <= low:"));
    expect(result.status).toBe(0);
    expect(result.output).toContain("edited pkg/core.py:3: if value < low: -> if value <= low:");
    expect(result.output).toMatch(/^\s+3\t {4}if value <= low:$/m);
    expect(readFileSync(join(directory, "pkg", "core.py"), "utf8").split("\n")[2]).toBe(
      "    if value <= low:",
    );
  });

  it("leaves a line that no longer reads as shown, and says so", () => {
    repository();
    const before = readFileSync(join(directory, "pkg", "core.py"), "utf8");
    const result = bash(editCommand("pkg/core.py", 3, "    if value > low:", "    if value >= low:"));
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("not edited: line 3 of pkg/core.py no longer reads");
    expect(readFileSync(join(directory, "pkg", "core.py"), "utf8")).toBe(before);
  });

  it("keeps quotes and backslashes of the line exact", () => {
    repository();
    const original = '    return min(value, high) + len("it\'s")';
    const replacement = '    return max(value, high) + len("it\'s\\n")';
    expect(bash(editCommand("pkg/core.py", 5, original, replacement)).status).toBe(0);
    expect(readFileSync(join(directory, "pkg", "core.py"), "utf8").split("\n")[4]).toBe(replacement);
  });
});

describe("search, show and reproduce", () => {
  it("search prints path:line:text, show numbered lines, reproduce the repr or a traceback", () => {
    repository();
    expect(bash(searchCommand("clamp")).output).toContain("./pkg/core.py:1:def clamp(value, low, high):");
    expect(bash(showCommand("pkg/core.py", 3, 4)).output).toBe(
      "     3\t    if value < low:\n     4\t        return low\n",
    );
    expect(bash(reproduceCommand(["pkg"], "clamp(5, 1, 3)")).output.trim()).toBe("7");
    const failure = bash(reproduceCommand(["pkg"], 'clamp("a", 1, 3)'));
    expect(failure.output).toMatch(/File ".*pkg\/core\.py", line 3, in clamp/);
  });
});
