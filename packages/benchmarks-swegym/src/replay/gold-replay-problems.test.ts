import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSweGym } from "../create-swegym.js";

const directory = mkdtempSync(join(tmpdir(), "hs-swegym-replay-problems-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("SWE-Gym gold replay", () => {
  it("names the rows it did not replay: a repeated instance and one with no FAIL_TO_PASS test", async () => {
    const bundled = join(import.meta.dirname, "..", "..", "data", "train.jsonl");
    const row = JSON.parse(readFileSync(bundled, "utf8").split("\n")[0] ?? "{}") as Record<string, unknown>;
    // a repository without a spec fails at once, so the replay runs no test suite
    const unknown = { ...row, instance_id: "elsewhere__lib-1", repo: "elsewhere/lib" };
    const file = join(directory, "rows.jsonl");
    const rows = [unknown, unknown, { ...unknown, instance_id: "elsewhere__lib-2", FAIL_TO_PASS: [] }];
    writeFileSync(file, rows.map((entry) => `${JSON.stringify(entry)}\n`).join(""));
    const benchmark = await createSweGym({ repos: directory, cacheGrades: false });
    if (benchmark.goldReplay === undefined) throw new Error("SWE-Gym offers no gold replay");
    const report = await benchmark.goldReplay({ tasks: { path: file } });
    expect(report.total).toBe(1);
    expect(report.failures[0]?.reason).toMatch(/no spec for elsewhere\/lib/);
    expect(report.problems).toEqual([
      expect.stringMatching(/rows\.jsonl:2, field "instance_id": instance "elsewhere__lib-1" appears twice/),
      expect.stringMatching(/rows\.jsonl:3, field "FAIL_TO_PASS": expected at least one test/),
    ]);
  });
});
