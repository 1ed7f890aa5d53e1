import { appendFile, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createJsonlTail, readJsonAt } from "./jsonl-tail.js";

describe("createJsonlTail", () => {
  it("reads only what was appended, holds back a half-written line and names a bad one", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "hs-tail-")), "metrics.jsonl");
    const tail = createJsonlTail(file);
    expect(await tail.read()).toEqual([{ file, message: "not there (yet)" }]);
    await writeFile(file, '{"step":0}\n{"step":1}\n{"st');
    expect(await tail.read()).toEqual([
      { file, line: 3, message: "line 3 has no end yet (4 bytes): still being written, or cut off" },
    ]);
    expect(tail.rows.map((row) => row.value)).toEqual([{ step: 0 }, { step: 1 }]);
    await appendFile(file, 'ep":2}\nnot json\n{"step":3}\n');
    const problems = await tail.read();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file, line: 4 });
    expect(tail.rows.map((row) => row.value)).toEqual([{ step: 0 }, { step: 1 }, { step: 2 }, { step: 3 }]);
    const third = tail.rows[2];
    expect(await readJsonAt(file, third?.offset ?? 0, third?.length ?? 0)).toEqual({ step: 2 });
  });

  it("starts again from the top when the file was replaced by a shorter one", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "hs-tail-")), "metrics.jsonl");
    await writeFile(file, '{"step":0}\n{"step":1}\n');
    const tail = createJsonlTail(file, (value) => (value as { step: number }).step);
    await tail.read();
    await writeFile(file, '{"step":9}\n');
    expect(await tail.read()).toEqual([]);
    expect(tail.rows.map((row) => row.value)).toEqual([9]);
  });
});

describe("createJsonlTail with a byte limit", () => {
  it("reads a large file a part at a time and says it is behind until the end", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "hs-tail-")), "trajectories.jsonl");
    await writeFile(file, Array.from({ length: 100 }, (_, index) => `{"index":${index}}\n`).join(""));
    const tail = createJsonlTail(file);
    expect(await tail.read(300)).toEqual([]);
    expect(tail.behind).toBe(true);
    const partly = tail.rows.length;
    expect(partly).toBeGreaterThan(10);
    expect(partly).toBeLessThan(100);
    while (tail.behind) await tail.read(300);
    expect(tail.rows.map((row) => (row.value as { index: number }).index)).toEqual(
      Array.from({ length: 100 }, (_, index) => index),
    );
  });
});
