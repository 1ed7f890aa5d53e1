import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "..", "..", "..");
const script = join(root, "scripts", "contract-shapes.mjs");
const committed = join(root, "docs", "contracts.md");

async function check(file: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(process.execPath, [script, "--check", `--out=${file}`], { cwd: root });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, output: failed.stderr };
  }
}

// The script loads TypeScript and the built package: seconds on a busy machine, so both runs start at once.
const limit = 60_000;
let committedCheck: { code: number; output: string };
let changedCheck: { code: number; output: string };

beforeAll(async () => {
  const text = await readFile(committed, "utf8");
  const copy = join(await mkdtemp(join(tmpdir(), "hs-contracts-")), "contracts.md");
  await writeFile(
    copy,
    text.replace(/^\| `reward` +\| number in \[0, 1\] +\| yes /m, "| `reward` | number | no "),
  );
  [committedCheck, changedCheck] = await Promise.all([check(committed), check(copy)]);
}, limit);

describe("docs/contracts.md, generated from the contracts' zod schemas and declarations", () => {
  it("is what scripts/contract-shapes.mjs generates from the built package now", () => {
    expect(committedCheck.output).toContain("is up to date");
    expect(committedCheck.code).toBe(0);
  });

  it("has a row for each field of a schema, with its type, optionality and JSDoc", async () => {
    const rows = (await readFile(committed, "utf8")).split("\n").map((line) => line.replace(/ {2,}/g, " "));
    expect(rows).toContain(
      '| `endReason` | `"submitted"` \\| `"budget"` \\| `"reprompts-exhausted"` \\| `"output-budget"` \\| `"error"` \\| `"cancelled"` | yes | Why the episode ended. |',
    );
    expect(rows).toContain("| `timings.wallMs` | number ≥ 0 | yes | Total wall time in milliseconds. |");
    expect(
      rows.some((row) => row.startsWith("| `goldOf` | `(task: Task) => readonly string[]` | no |")),
    ).toBe(true);
  });

  it("fails, naming the first differing line, when the file differs from the contracts", () => {
    expect(changedCheck.code).toBe(1);
    expect(changedCheck.output).toMatch(
      /differs from the contracts \(line \d+: expected "\| `reward` +\| number in \[0, 1\]/,
    );
  });
});
