import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../main.js";

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

describe("hs gold-replay", () => {
  it("replays dev on SQLite and prints per-type pass rates", async () => {
    const result = await run(["gold-replay", "--bench", "dbbench", "--split", "dev"]);
    expect(result.stdout).toMatch(/INSERT\s+20\/20 \(100\.0%\)/);
    expect(result.stdout).toMatch(/all\s+59\/59/);
    expect(result.code).toBe(0);
  }, 30_000);
  it("prints {passed,total,...} with --json for a file, with failures named", async () => {
    const file = join(tmpdir(), `hs-gold-${process.pid}.jsonl`);
    const record = {
      description: "How many rows?",
      add_description: "The name of this table is t, and the headers of this table are a.",
      type: ["counting"],
      label: ["3"],
      table: {
        table_name: "t",
        table_info: { columns: [{ name: "a", type: "TEXT" }], rows: [["x"], ["y"]] },
      },
    };
    writeFileSync(file, `${JSON.stringify(record)}\n${JSON.stringify({ ...record, label: ["2"] })}\n`);
    const result = await run(["gold-replay", "--bench", "dbbench", "--data", file, "--json"]);
    const report = JSON.parse(result.stdout) as { passed: number; total: number };
    expect(result.stdout.startsWith('{"passed":2,"total":2')).toBe(true);
    expect(report).toMatchObject({ passed: 2, total: 2 });
  });
  it("names the records that did not load and fails when nothing was replayed", async () => {
    const file = join(tmpdir(), `hs-gold-notable-${process.pid}.jsonl`);
    writeFileSync(
      file,
      `${JSON.stringify({ description: "How many?", type: ["counting"], label: ["3"] })}\n`,
    );
    const result = await run(["gold-replay", "--bench", "dbbench", "--data", file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`NOT LOADED ${file}:1, field "table": missing: expected a table object`);
    expect(result.stderr).toContain(
      `no task was replayed from ${file}: none of its records loaded (1 refused: ${file}:1, field "table"`,
    );
    const empty = join(tmpdir(), `hs-gold-empty-${process.pid}.jsonl`);
    writeFileSync(empty, "\n");
    const nothing = await run(["gold-replay", "--bench", "dbbench", "--data", empty]);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain("it holds no task (an empty file or split)");
  });
  it("rejects a benchmark that is not installed", async () => {
    const result = await run(["gold-replay", "--bench", "no-such-benchmark"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot find the package "no-such-benchmark"/);
  });
});
