import { describe, expect, it } from "vitest";
import { parseRecords } from "./load-records.js";

const table = {
  table_name: "Scorers",
  table_info: { columns: [{ name: "Player" }, { name: "Points" }], rows: [["Ann", "3"]] },
};
const query = { description: "Who scored 3 points?", label: ["Ann"], table, type: ["other"] };
const line = (record: object) => JSON.stringify(record);

describe("parseRecords", () => {
  it("accepts a UTF-8 byte order mark at the start of the file", () => {
    const parsed = parseRecords(`\uFEFF${line(query)}\n${line(query)}\n`, "bom.jsonl", "bom");
    expect(parsed.problems).toEqual([]);
    expect(parsed.records.map(({ task }) => task.id)).toEqual(["dbbench/bom/0", "dbbench/bom/1"]);
  });

  it("rejects an INSERT or UPDATE with neither label nor answer_md5, naming file, line and field", () => {
    const insert = { description: "Add Bo with 4 points.", table, type: ["INSERT"] };
    const update = { description: "Set Ann's points to 5.", label: [], answer_md5: "", table, type: ["UPDATE"] };
    const hashed = { ...insert, answer_md5: "0123456789abcdef0123456789abcdef" };
    const parsed = parseRecords([insert, update, hashed, query].map(line).join("\n"), "d.jsonl", "d");
    expect(parsed.records.map(({ record }) => record.type[0])).toEqual(["INSERT", "other"]);
    expect(parsed.problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(/d\.jsonl:1, field "label": INSERT records need "label" .* or "answer_md5"/),
      expect.stringMatching(/d\.jsonl:2, field "label": UPDATE records need/),
    ]);
  });
});
