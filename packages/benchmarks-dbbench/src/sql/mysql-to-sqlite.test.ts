import { describe, expect, it } from "vitest";
import { createSqliteEngine } from "../engines/sqlite-engine.js";
import { pythonRepr } from "../python/python-value.js";

const table = {
  name: "City Table",
  columns: ["City", "Pop", "Year"],
  rows: [
    ["Montréal", "12,000", "2001"],
    ["Paris", "5", "1999"],
    ["apple", null, "2005"],
  ],
};

async function run(sql: string): Promise<string> {
  const engine = createSqliteEngine({ limits: { timeLimitMs: 2000, maxRows: 1000 } });
  const database = await engine.createDatabase([table]);
  try {
    const outcome = await database.execute(sql);
    if (!outcome.ok) return outcome.message;
    return pythonRepr({ kind: "list", items: outcome.rows.map((row) => ({ kind: "tuple", items: row })) });
  } finally {
    await database.close();
  }
}

describe("SQLite engine behaves as MySQL on DBBench tables", () => {
  it("compares text ignoring case and accents", async () => {
    expect(await run("SELECT City FROM `City Table` WHERE City = 'MONTREAL'")).toBe("[('Montréal',)]");
    expect(await run("SELECT City FROM `City Table` WHERE City LIKE '%real'")).toBe("[('Montréal',)]");
    expect(await run("SELECT City FROM `City Table` WHERE City IN ('paris', 'APPLE')")).toBe(
      "[('Paris',), ('apple',)]",
    );
  });
  it("compares text with numbers by the leading numeric part", async () => {
    expect(await run("SELECT City FROM `City Table` WHERE Pop > 10")).toBe("[('Montréal',)]");
    expect(await run("SELECT COUNT(*) FROM `City Table` WHERE Year BETWEEN 2000 AND 2010")).toBe("[(2,)]");
  });
  it("sums and averages text as doubles, takes MIN/MAX of text as text", async () => {
    expect(await run("SELECT SUM(Pop), AVG(Pop), MAX(City), MIN(Year) FROM `City Table`")).toBe(
      "[(17.0, 8.5, 'Paris', '1999')]",
    );
  });
  it("reads MySQL literals: backslash escapes, double-quoted strings", async () => {
    expect(await run("SELECT 'a\\nb', \"x\\'y\"")).toBe("[('a\\nb', \"x'y\")]");
  });
  it("stores numeric literals as MySQL writes them into TEXT", async () => {
    const engine = createSqliteEngine({ limits: { timeLimitMs: 2000, maxRows: 1000 } });
    const database = await engine.createDatabase([table]);
    await database.execute("UPDATE `City Table` SET Pop = 7.50 WHERE City = 'paris'");
    await database.execute("INSERT INTO `City Table` (City, Pop) VALUES ('Rome', -3.10)");
    const outcome = await database.execute("SELECT Pop FROM `City Table` WHERE City IN ('Paris', 'Rome')");
    expect(
      outcome.ok &&
        pythonRepr({ kind: "list", items: outcome.rows.map((row) => ({ kind: "tuple", items: row })) }),
    ).toBe("[('7.50',), ('-3.10',)]");
    await database.close();
  });
  it("reports errors in the connector's form", async () => {
    expect(await run("SELEC * FROM x")).toMatch(/^1064 \(42000\): You have an error in your SQL syntax/);
    expect(await run("SELECT * FROM nosuch")).toMatch(/^1146 \(42S02\): Table '.*\.nosuch' doesn't exist$/);
  });
});
