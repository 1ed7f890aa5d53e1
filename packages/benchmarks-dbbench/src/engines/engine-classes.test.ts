import { afterAll, describe, expect, it } from "vitest";
import type { DatabaseEngine, StatementOutcome } from "./database-engine.js";
import { agentBenchSqlMode, createMysqlEngine } from "./mysql-engine.js";
import { createSqliteEngine } from "./sqlite-engine.js";

// The two engine gaps gold replay found on unseen standard-split records, on both engines: MySQL identifier rules (names may begin with
// digits unless all digits and unquoted) and strict-mode UPDATEs comparing TEXT cells with numbers.
// MariaDB runs when HS_MYSQL_URL is set (bash scripts/mariadb.sh start), with AgentBench's sql_mode.
const limits = { timeLimitMs: 2000, maxRows: 1000 };
const url = process.env.HS_MYSQL_URL;
const engines: [string, () => DatabaseEngine][] = [["SQLite", () => createSqliteEngine({ limits })]];
if (url !== undefined) engines.push(["MariaDB", () => createMysqlEngine({ url, limits })]);

const olympics = { name: "1952_olympics", columns: ["2nd_place", "Year"], rows: [["Kenya", "1952"]] };
const scores = {
  name: "scores",
  columns: ["Team", "Points", "Note"],
  rows: [
    ["Leeds", "12", "x"],
    ["Hull", "n/a", "y"],
    ["York", "3.50", "z"],
  ],
};
const numbers = {
  name: "numbers",
  columns: ["Team", "Points"],
  rows: [
    ["Leeds", "12"],
    ["York", " 7"],
  ],
};

const summary = (outcome: StatementOutcome): string =>
  outcome.ok ? `ok ${outcome.rows.length}` : outcome.message.slice(0, 60);

describe.each(engines)("%s engine", (_name, make) => {
  const engine = make();
  afterAll(async () => engine.close());
  async function run(
    tables: Parameters<DatabaseEngine["createDatabase"]>[0],
    sql: string[],
  ): Promise<string[]> {
    const database = await engine.createDatabase(tables);
    try {
      const results: string[] = [];
      for (const statement of sql) results.push(summary(await database.execute(statement)));
      return results;
    } finally {
      await database.close();
    }
  }

  it("reads unquoted names that begin with digits in INSERT, UPDATE and SELECT", async () => {
    expect(
      await run(
        [olympics],
        [
          "INSERT INTO 1952_olympics (2nd_place, Year) VALUES ('Chile', '1956')",
          "UPDATE 1952_olympics SET 2nd_place = 'Peru' WHERE Year = '1956'",
          "SELECT 2nd_place FROM 1952_olympics WHERE 2nd_place = 'Peru'",
          "SELECT 1952_olympics.2nd_place FROM 1952_olympics",
        ],
      ),
    ).toEqual(["ok 0", "ok 0", "ok 1", "ok 2"]);
  });

  it("rejects an all-digit name unless it is quoted", async () => {
    const [unquoted, quoted] = await run(
      [{ name: "123", columns: ["a"], rows: [["v"]] }],
      ["SELECT * FROM 123", "SELECT * FROM `123`"],
    );
    expect(unquoted).toMatch(/^1064 \(42000\)/);
    expect(quoted).toBe("ok 1");
  });

  it("fails an UPDATE whose WHERE compares a non-numeric TEXT cell with a number (strict mode)", async () => {
    expect(
      await run(
        [scores],
        [
          "UPDATE scores SET Note = 'w' WHERE Points = 12",
          "UPDATE scores SET Note = 'w' WHERE Points = 3.5",
          "UPDATE scores SET Note = 'w' WHERE Points IN (1, 2)",
          "UPDATE scores SET Note = 'w' WHERE Points BETWEEN 1 AND 3",
          "UPDATE scores SET Note = 'w' WHERE Points = '12'",
          "SELECT Team FROM scores WHERE Points = 12",
          "DELETE FROM scores WHERE Points = 99",
        ],
      ),
    ).toEqual([
      "1292 (22007): Truncated incorrect DECIMAL value: 'n/a'",
      "1292 (22007): Truncated incorrect DOUBLE value: 'n/a'",
      "1292 (22007): Truncated incorrect DECIMAL value: 'n/a'",
      "1292 (22007): Truncated incorrect DECIMAL value: 'n/a'",
      "ok 0",
      "ok 1",
      "ok 0",
    ]);
  });

  it("runs the same UPDATE when every cell is a number (leading spaces allowed)", async () => {
    expect(
      await run(
        [numbers],
        ["UPDATE numbers SET Team = 'Hull' WHERE Points = 7", "SELECT Team FROM numbers WHERE Team = 'Hull'"],
      ),
    ).toEqual(["ok 0", "ok 1"]);
  });
});

describe("agentBenchSqlMode", () => {
  it("is MySQL 8.0's default sql_mode, strict included", () => {
    expect(agentBenchSqlMode.split(",")).toContain("STRICT_TRANS_TABLES");
    expect(agentBenchSqlMode.split(",")).toContain("ONLY_FULL_GROUP_BY");
  });
});
