import { mkdtempSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertBenchmarkConformance } from "@hs/harness/conformance";
import { describe, it } from "vitest";
import { createDbBench, type DbBench, recordsOf } from "./create-dbbench.js";

const devFile = join(import.meta.dirname, "..", "data", "dev.jsonl");

/**
 * The dev file without labels, reference SQL or hashes: a decoy hash keeps change tasks gradable and
 * a decoy label keeps queries so (the loader refuses a record any empty answer would pass).
 */
async function strippedDevFile(): Promise<string> {
  const lines = (await readFile(devFile, "utf8")).split("\n").filter((line) => line.trim() !== "");
  const stripped = lines.map((line) => {
    const {
      label: _label,
      sql: _sql,
      answer_md5: md5,
      ...rest
    } = JSON.parse(line) as Record<string, unknown>;
    return JSON.stringify(
      md5 === undefined ? { ...rest, label: ["decoy"] } : { ...rest, answer_md5: "0".repeat(32) },
    );
  });
  // named like the bundled file, so that its tasks get the same split and ids
  const file = join(mkdtempSync(join(tmpdir(), "hs-dbbench-stripped-")), "dev.jsonl");
  writeFileSync(file, `${stripped.join("\n")}\n`);
  return file;
}

describe("DBBench passes the benchmark conformance kit", () => {
  it("on dev: no gold in tasks or views, isolated episodes, per-line errors, gold replay", async () => {
    let current: DbBench | undefined;
    const bad = join(tmpdir(), `hs-dbbench-bad-${process.pid}.jsonl`);
    const [first, second] = (await readFile(devFile, "utf8")).split("\n");
    writeFileSync(bad, `${first}\n{"description": 3}\n${second}\n`);
    const stripped = await strippedDevFile();
    await assertBenchmarkConformance({
      createBenchmark: () => {
        current = createDbBench();
        return current;
      },
      split: "dev",
      // dev.jsonl line 6 has a column without a name, as AgentBench ships it
      expectedProblems: 1,
      goldOf: (task) => {
        const record = current === undefined ? undefined : recordsOf.get(current)?.(task.id);
        return [record?.answer_md5, record?.sql?.query, ...(record?.label ?? []).map(String)].filter(
          (text): text is string => typeof text === "string",
        );
      },
      mutatingCall: (task) => ({
        id: "m",
        name: "execute_sql",
        arguments: { sql: `DELETE FROM \`${String(task.metadata.tableName)}\`` },
      }),
      loadWithoutGold: async () => createDbBench().loadTasks({ path: stripped }),
      badRecord: { path: bad, line: 2 },
    });
  }, 120_000);
});
