import { describe, expect, it } from "vitest";
import { parseResultRows, parseTableDescription } from "./read-view.js";

describe("parseResultRows", () => {
  it("reads AgentBench's raw MySQL reply into cell texts (None for NULL)", () => {
    expect(parseResultRows("[('Leeds', 12), (None, 3.5)]")).toEqual([
      ["Leeds", "12"],
      ["None", "3.5"],
    ]);
    expect(parseResultRows("[]")).toEqual([]);
  });

  it("ignores a harness note after the reply and keeps the whole rows before a cut", () => {
    expect(parseResultRows("[]\nNo rows matched. Look at the distinct values.")).toEqual([]);
    expect(parseResultRows("[('a', 1), ('b', 2), ('c[TRUNCATED]")).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
  });

  it("is undefined for an error text", () => {
    expect(parseResultRows("1054 (42S22): Unknown column 'x' in 'field list'")).toBeUndefined();
  });
});

describe("parseTableDescription", () => {
  it("reads the table name and headers", () => {
    expect(
      parseTableDescription("The name of this table is T, and the headers of this table are A,B."),
    ).toEqual({
      tableName: "T",
      headers: ["A", "B"],
    });
  });
});
