import { afterAll, describe, expect, it } from "vitest";
import { createDbBench } from "../create-dbbench.js";
import { goldReplay } from "../replay/gold-replay.js";
import { createMysqlEngine } from "./mysql-engine.js";

const url = process.env.HS_MYSQL_URL;
if (url === undefined) {
  console.warn(
    "SKIPPED: MariaDB tests of @hs/benchmarks-dbbench (HS_MYSQL_URL is not set; run `bash scripts/mariadb.sh start`).",
  );
}

describe.skipIf(url === undefined)("MariaDB engine (HS_MYSQL_URL)", () => {
  const limits = { timeLimitMs: 1000, maxRows: 1000 };
  const engine = createMysqlEngine({ url: url ?? "mysql://localhost", limits });
  afterAll(async () => engine.close());
  const table = {
    name: "City Table",
    columns: ["City", "Pop"],
    rows: [
      ["Montréal", "12,000"],
      ["Paris", null],
    ],
  };

  it("renders rows as mysql-connector does and hashes like the JavaScript hash", async () => {
    const database = await engine.createDatabase([table]);
    const outcome = await database.execute(
      "SELECT City, SUM(Pop), COUNT(*) FROM `City Table` WHERE City = 'montreal' GROUP BY City",
    );
    expect(outcome).toMatchObject({
      ok: true,
      rows: [
        [
          { kind: "str", value: "Montréal" },
          { kind: "float", value: 12 },
          { kind: "int", value: 1n },
        ],
      ],
    });
    const sqlite = await createDbBench().engine.createDatabase([table]);
    expect(await database.tableHash([table])).toBe(await sqlite.tableHash([table]));
    await sqlite.close();
    await database.close();
  });
  it("stops a runaway query and a huge result, and the database stays usable; close drops it", async () => {
    const database = await engine.createDatabase([table]);
    const t = "`City Table`";
    const slow = await database.execute(`SELECT SLEEP(5)`);
    expect(slow).toMatchObject({ ok: false, reason: "timeout" });
    const huge = await database.execute(
      `SELECT * FROM ${t} a, ${t} b, ${t} c, ${t} d, ${t} e, ${t} f, ${t} g, ${t} h, ${t} i, ${t} j, ${t} k`,
    );
    expect(huge).toMatchObject({ ok: false, reason: "too-large" });
    expect(await database.execute(`SELECT COUNT(*) FROM ${t}`)).toMatchObject({
      ok: true,
      rows: [[{ kind: "int", value: 2n }]],
    });
    const name = database.name;
    await database.close();
    const probe = await engine.createDatabase([]);
    const listed = await probe.execute(`SHOW DATABASES LIKE '${name}'`);
    expect(listed).toMatchObject({ ok: true, rows: [] });
    await probe.close();
  });
  it("replays dev's gold solutions at 100%", async () => {
    const benchmark = createDbBench({ engine: url ?? "", queryTimeLimitMs: 10_000 });
    const report = await goldReplay({ benchmark, tasks: { split: "dev" }, skipDatasetSql: true });
    expect(report.failures).toEqual([]);
    expect(report.total).toBe(59);
    await benchmark.close();
  }, 30_000);
});
