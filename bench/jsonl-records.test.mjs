// node --test bench/jsonl-records.test.mjs
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import { jsonlRecords } from "./jsonl-records.mjs";

const directory = mkdtempSync(join(tmpdir(), "hs-jsonl-records-"));
after(() => rmSync(directory, { recursive: true, force: true }));

it("reads records split across chunks, in order, skipping blank lines", () => {
  const file = join(directory, "runs.jsonl");
  const records = [{ id: "a", text: "é".repeat(40) }, { id: "b" }, { id: "c", steps: [1, 2, 3] }];
  writeFileSync(file, `${records.map((record) => JSON.stringify(record)).join("\n\n")}\n`);
  for (const chunkBytes of [7, 64, 1 << 16]) assert.deepEqual([...jsonlRecords(file, chunkBytes)], records);
  writeFileSync(file, JSON.stringify(records[1]));
  assert.deepEqual([...jsonlRecords(file, 5)], [records[1]]);
});

it("names the file and line of a line that is not JSON", () => {
  const file = join(directory, "cut.jsonl");
  writeFileSync(file, '{"id":"a"}\n{"id":"b"}\n{"id":\n');
  assert.throws(() => [...jsonlRecords(file, 4)], /cut\.jsonl:3: not a JSON line/);
});
