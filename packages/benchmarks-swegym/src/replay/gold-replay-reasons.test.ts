import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTinyMirror } from "../__fixtures__/tiny-repo.js";
import { createSweGym } from "../create-swegym.js";
import type { ReplayFailureDetail } from "./gold-replay.js";

const fixture = createTinyMirror();
const directory = mkdtempSync(join(tmpdir(), "hs-swegym-replay-reasons-"));
afterAll(() => {
  fixture.remove();
  rmSync(directory, { recursive: true, force: true });
});

describe("gold replay's failure reasons", () => {
  it("say pytest refused -n0, show the log's tail, and keep the tail and per-test map in the report", async () => {
    const file = join(directory, "rows.jsonl");
    writeFileSync(file, `${JSON.stringify(fixture.instance)}\n`);
    const test_cmd = "/usr/bin/python3 -m pytest -p no:xdist -p no:cacheprovider -n0 -rA";
    const swegym = await createSweGym({
      repos: fixture.mirror,
      python: "/usr/bin/python3",
      specs: { "fixture/calc": { "*": { test_cmd } } },
      warn: () => {},
    });
    const report = await swegym.goldReplay?.({ tasks: { path: file } });
    expect(report?.passed).toBe(0);
    const reason = report?.failures[0]?.reason ?? "";
    expect(reason).toMatch(/^gold patch not resolved: pytest refused its arguments "-n0"/);
    expect(reason).toContain("\n  log tail:\n    | ");
    expect(reason).toMatch(/\n {4}\| .*unrecognized arguments: -n0\n/);
    const byTask = report?.details?.failureDetails as Record<string, ReplayFailureDetail[]>;
    expect(Object.keys(byTask)).toEqual([report?.failures[0]?.taskId]);
    const details = Object.values(byTask)[0];
    expect(details?.[0]).toMatchObject({ patch: "gold" });
    expect(details?.[0]?.log_tail).toContain(">>>>> Start Test Output");
    expect(details?.[0]?.tests_status_map).toBeTypeOf("object");
  });
});
