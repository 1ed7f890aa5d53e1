import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { taskSchema } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { readJsonFile } from "./json-file.js";
import { readJsonl } from "./jsonl.js";
import { createHarnessConfig, parseHarnessConfig } from "./parse-harness-config.js";
import { createPool, createSibling } from "./pool-entries.js";
import { verifyPoolIntegrity } from "./pool-integrity.js";
import { readHarnessConfigFile } from "./read-harness-file.js";

const base = createHarnessConfig({ id: "base" });
const directory = await mkdtemp(join(tmpdir(), "hs-strict-"));

describe("strict harness configs", () => {
  it("refuses a misspelled optional key with did-you-mean and the field", () => {
    const config = {
      ...base,
      errorRecovery: { ...base.errorRecovery, emptyResults: { pattern: "^\\[\\]$", suffix: "x" } },
    };
    expect(() => parseHarnessConfig(config, { file: "h.json" })).toThrow(
      /h\.json, field "errorRecovery": invalid harness config: unknown key "emptyResults" \(did you mean "emptyResult"\?\)/,
    );
  });

  it("refuses an unknown section and names the sections it expects", () => {
    expect(() => parseHarnessConfig({ ...base, verfication: base.verification })).toThrow(
      /unknown key "verfication" \(did you mean "verification"\?\); expected keys: schemaVersion, id/,
    );
  });

  it("checks a text rule against its own capture groups", () => {
    const rule = (argumentsOf: Record<string, number | string>) => ({
      ...base,
      actionFormat: {
        kind: "text",
        rules: [
          { tool: "execute_sql", pattern: "```sql\\n(?<sql>.*?)```", flags: "s", arguments: argumentsOf },
        ],
      },
    });
    expect(parseHarnessConfig(rule({ sql: "sql" })).actionFormat.kind).toBe("text");
    expect(parseHarnessConfig(rule({ sql: 1 })).actionFormat.kind).toBe("text");
    expect(() => parseHarnessConfig(rule({ sql: 2 }))).toThrow(
      /field "actionFormat.rules.0.arguments.sql".*capture group 2 does not exist: the pattern has 1 numbered group/,
    );
    expect(() => parseHarnessConfig(rule({ sql: "query" }))).toThrow(
      /capture group "query" does not exist: the pattern's named groups are sql/,
    );
  });
});

describe("JSON and JSONL readers", () => {
  it("accept a UTF-8 BOM and keep the first record", async () => {
    const file = join(directory, "bom.jsonl");
    const task = { id: "t1", benchmark: "b", split: "s", category: "c", instruction: "i", metadata: {} };
    await writeFile(file, `\uFEFF${JSON.stringify(task)}\n${JSON.stringify({ ...task, id: "t2" })}\n`);
    const { records, problems } = await readJsonl(file, taskSchema);
    expect(problems).toEqual([]);
    expect(records.map((record) => record.id)).toEqual(["t1", "t2"]);
    const harnessFile = join(directory, "bom-harness.json");
    await writeFile(harnessFile, `\uFEFF${JSON.stringify(base)}`);
    expect((await readHarnessConfigFile(harnessFile)).id).toBe("base");
  });

  it("name the file, line and expectation for empty, directory, truncated and missing files", async () => {
    await writeFile(join(directory, "empty.json"), "");
    await writeFile(join(directory, "cut.json"), '{\n  "schemaVersion": 1,\n  "id": "x"');
    await mkdir(join(directory, "folder.json"));
    await expect(readJsonFile(join(directory, "empty.json"), "a harness config")).rejects.toThrow(
      /empty\.json: the file is empty; expected a harness config/,
    );
    await expect(readJsonFile(join(directory, "folder.json"), "a pool")).rejects.toThrow(
      /folder\.json: is a directory; expected a pool/,
    );
    await expect(readJsonFile(join(directory, "cut.json"), "a pool")).rejects.toThrow(
      /cut\.json:3: not valid JSON at column \d+ \(the file looks truncated\)/,
    );
    await expect(readJsonFile(join(directory, "none.json"), "a pool")).rejects.toThrow(
      /none\.json: no such file; expected a pool/,
    );
  });
});

describe("pool integrity", () => {
  const sibling = createSibling(createHarnessConfig({ id: "sib", description: "a" }), {
    direction: "guidance",
    lineage: ["base"],
    validation: { failuresTried: 1, rescued: 1, successesTried: 1, regressions: 0 },
  });
  const pool = createPool({
    benchmark: "spelling",
    createdAt: "2026-01-01T00:00:00Z",
    policyVersion: "p",
    base,
    siblings: [sibling],
  });

  it("accepts a consistent pool and refuses stale hashes, mismatched ids and another benchmark", () => {
    expect(() => verifyPoolIntegrity(pool, { benchmark: "spelling" })).not.toThrow();
    const edited = { ...sibling, config: { ...sibling.config, description: "edited by hand" } };
    expect(() => verifyPoolIntegrity({ ...pool, siblings: [edited] }, { file: "p.json" })).toThrow(
      /p\.json, field "siblings\.0\.hash": stale hash/,
    );
    expect(() => verifyPoolIntegrity({ ...pool, siblings: [{ ...sibling, id: "other" }] })).toThrow(
      /field "siblings\.0\.id": id "other" differs from its config's id "sib"/,
    );
    expect(() => verifyPoolIntegrity(pool, { benchmark: "swebench" })).toThrow(
      /evolved for benchmark "spelling", expected "swebench"/,
    );
    expect(() => verifyPoolIntegrity({ ...pool, siblings: [sibling, sibling] })).toThrow(
      /duplicate harness id/,
    );
  });
});
