import { describe, expect, it } from "vitest";
import { main } from "../main.js";

const url = process.env.HS_MYSQL_URL;
if (url === undefined) console.warn("SKIPPED: hs engine-diff against MariaDB (HS_MYSQL_URL is not set).");

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

describe("hs engine-diff", () => {
  it("needs a reference server", async () => {
    const saved = process.env.HS_MYSQL_URL;
    delete process.env.HS_MYSQL_URL;
    const result = await run(["engine-diff", "--bench", "dbbench"]);
    if (saved !== undefined) process.env.HS_MYSQL_URL = saved;
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--engine mysql:\/\//);
  });
  it.skipIf(url === undefined)(
    "agrees with MariaDB on at least 99% of a file's statements",
    async () => {
      const result = await run([
        "engine-diff",
        "--bench",
        "dbbench",
        "--engine",
        url ?? "",
        "--json",
        "--data",
        `${import.meta.dirname}/../../../../packages/benchmarks-dbbench/data/dev.jsonl`,
      ]);
      const report = JSON.parse(result.stdout) as { agreement: number; statements: number };
      expect(report.statements).toBeGreaterThan(1000);
      expect(report.agreement).toBeGreaterThanOrEqual(0.99);
    },
    180_000, // 30 s alone; past 60 s with a training run sharing the 2 cores
  );
});
