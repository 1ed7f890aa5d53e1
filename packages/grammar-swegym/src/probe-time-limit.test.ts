import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { probeCommand, probeTimeLimits } from "./commands.js";

const directory = mkdtempSync(join(tmpdir(), "hs-probe-limit-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const source =
  "import time\n\ndef count(limit):\n    total = 0\n    while total < limit:\n        total += 1\n    return total\n";
mkdirSync(join(directory, "pkg"));
writeFileSync(join(directory, "pkg", "__init__.py"), "from .core import count\n");
writeFileSync(join(directory, "pkg", "core.py"), source);

function probe(rewrites: string[]): string {
  const command = probeCommand(["pkg"], ["count(3)"], "pkg/core.py", [
    { line: 6, original: "        total += 1", rewrites },
  ]);
  return execFileSync("bash", ["-c", command], { cwd: directory, encoding: "utf8" });
}

describe("a probe's time limits", () => {
  it("cuts a rewrite that loops by CPU time and one that sleeps by wall time, and restores the file", () => {
    const output = probe(["        total += 0", "        time.sleep(5)", "        total += 2"]);
    expect(output).toContain(`[0] raised TimeoutError: ran past ${probeTimeLimits.cpuSeconds} CPU s`);
    expect(output).toContain(`[0] raised TimeoutError: ran past ${probeTimeLimits.wallSeconds} s`);
    expect(output).toContain("[0] => 4");
    expect(readFileSync(join(directory, "pkg", "core.py"), "utf8")).toBe(source);
  });
});
