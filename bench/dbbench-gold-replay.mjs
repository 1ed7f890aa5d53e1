// Gold replay throughput and per-episode database cost of @hs/benchmarks-dbbench on SQLite and on
// MySQL/MariaDB (HS_MYSQL_URL, e.g. from `bash scripts/mariadb.sh start`). SQLite is the baseline the
// MariaDB figures are divided by. Build first: pnpm --filter @hs/benchmarks-dbbench build.
// Usage: node bench/dbbench-gold-replay.mjs [--rounds N]

import { readFileSync } from "node:fs";
import { dbbenchRecordSchema } from "../packages/benchmarks-dbbench/dist/data/dbbench-record.js";
import { createDbBench, goldReplay, recordTables } from "../packages/benchmarks-dbbench/dist/index.js";

const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 3;
const url = process.env.HS_MYSQL_URL;
const firstLine = readFileSync(
  new URL("../packages/benchmarks-dbbench/data/standard-a.jsonl", import.meta.url),
  "utf8",
).split("\n")[0];
const tables = recordTables(dbbenchRecordSchema.parse(JSON.parse(firstLine)));

async function measure(engine) {
  const benchmark = createDbBench({ engine, queryTimeLimitMs: 30_000 });
  const rates = [];
  for (let round = 0; round < rounds; round += 1) {
    const report = await goldReplay({ benchmark, tasks: { split: "standard-a" }, skipDatasetSql: true });
    rates.push(report.episodesPerSecond);
  }
  const times = [];
  for (let index = 0; index < 30; index += 1) {
    const started = process.hrtime.bigint();
    const database = await benchmark.engine.createDatabase(tables);
    await database.close();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  const description = await benchmark.engine.describe();
  await benchmark.close();
  return {
    description,
    episodesPerSecond: Math.max(...rates),
    createDropMs: times[Math.floor(times.length / 2)],
  };
}

const sqlite = await measure("sqlite");
console.log(
  `${sqlite.description}: gold replay ${sqlite.episodesPerSecond.toFixed(1)} episodes/s (standard-a, best of ${rounds}); create+drop one episode database ${sqlite.createDropMs.toFixed(2)} ms (median of 30, ${tables[0].rows.length} rows)`,
);
if (url === undefined) {
  console.log("MariaDB: skipped (HS_MYSQL_URL not set)");
} else {
  const server = await measure(url);
  console.log(
    `${server.description}: gold replay ${server.episodesPerSecond.toFixed(1)} episodes/s (${(server.episodesPerSecond / sqlite.episodesPerSecond).toFixed(3)}x SQLite); create+drop ${server.createDropMs.toFixed(2)} ms (${(server.createDropMs / sqlite.createDropMs).toFixed(1)}x SQLite)`,
  );
}
