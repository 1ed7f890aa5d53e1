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

  it("rejects records any empty answer passes: a query without a label, an INSERT with label [\"\"]", () => {
    const unlabelled = { description: "Who scored 3 points?", table, type: ["other"] };
    const blankQuery = { ...query, label: ["", " "] };
    const blankInsert = { description: "Add Bo with 4 points.", label: [""], table, type: ["INSERT"] };
    const statement = { ...blankInsert, label: ["INSERT INTO Scorers VALUES ('Bo', '4')"] };
    const noneAnswer = { ...query, label: [null] };
    const records = [unlabelled, blankQuery, blankInsert, statement, noneAnswer, query];
    const parsed = parseRecords(records.map(line).join("\n"), "e.jsonl", "e");
    expect(parsed.records.map(({ task }) => task.id)).toEqual(["dbbench/e/3", "dbbench/e/4", "dbbench/e/5"]);
    expect(parsed.problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(/e\.jsonl:1, field "label": a query \(type other\) needs "label" .* it has no label, so an empty answer would pass/),
      expect.stringMatching(/e\.jsonl:2, field "label": .* it has label \[""," "\], so an empty answer would pass/),
      expect.stringMatching(/e\.jsonl:3, field "label": INSERT records need "label" \(a non-empty reference statement\) .* label \[""\] and no answer_md5/),
    ]);
  });
});
