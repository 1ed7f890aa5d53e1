import { parseHarnessConfig, runEpisode } from "@hs/harness";
import { createScriptedPolicy } from "@hs/harness/test-environments";
import type { HarnessConfig } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { createDbBench } from "./create-dbbench.js";
import { dbbenchLibrary } from "./evolution-library.js";
import { dbbenchHarnessCallLibrary } from "./harness-call-directions.js";
import { v02Preset } from "./presets.js";

const bench = createDbBench();
const { tasks } = await bench.loadTasks({ split: "dev" });
const query = tasks.find((task) => task.category === "other")!;
const update = tasks.find((task) => task.category === "UPDATE")!;
const sql = (text: string) => `Action: Operation\n\`\`\`sql\n${text}\n\`\`\``;
const answer = "Action: Answer\nFinal Answer: []";

function sibling(patch: (config: HarnessConfig) => void): HarnessConfig {
  const config = structuredClone(v02Preset);
  patch(config);
  return parseHarnessConfig(config);
}

describe("DBBench harness-call directions", () => {
  it("the library offers them to the operators", () => {
    expect(dbbenchLibrary.preludes).toBe(dbbenchHarnessCallLibrary.preludes);
    expect(dbbenchLibrary.followUps?.length).toBeGreaterThanOrEqual(2);
    expect(dbbenchLibrary.checkCalls?.length).toBeGreaterThanOrEqual(2);
  });

  it("after an empty result the follow-up names the column and shows its distinct values", async () => {
    const table = String(query.metadata.tableName);
    const header = (query.metadata.headers as string[])[0] as string;
    const config = sibling((draft) => {
      draft.errorRecovery.followUps = [dbbenchHarnessCallLibrary.followUps[0]!];
    });
    const policy = createScriptedPolicy([
      sql(`SELECT * FROM \`${table}\` WHERE \`${header}\` = 'no such value';`),
      answer,
    ]);
    const trajectory = await runEpisode({ task: query, benchmark: bench, harness: config, policy, seed: 1 });
    const shown = policy.views[1]?.messages.at(-1)?.content ?? "";
    expect(shown).toContain("[]\n\nNo rows matched: a value you filtered on may be written differently");
    expect(shown).toContain(
      `[harness ran execute_sql: SELECT DISTINCT \`${header}\` FROM \`${table}\` LIMIT 30;]\n[(`,
    );
    expect(trajectory.steps[0]?.executed).toHaveLength(1);
    expect(trajectory.steps[0]?.harnessCalls).toHaveLength(1);
    expect(trajectory.steps[0]?.harnessCalls?.[0]?.result.isError).toBe(false);
  });

  it("with an AND, the follow-up lists the first and the last condition's columns", async () => {
    const table = String(query.metadata.tableName);
    const [first, second] = query.metadata.headers as string[];
    const config = sibling((draft) => {
      draft.errorRecovery.followUps = [dbbenchHarnessCallLibrary.followUps[0]!];
    });
    const policy = createScriptedPolicy([
      sql(`SELECT * FROM \`${table}\` WHERE \`${first}\` = 'x' AND \`${second}\` = 'no such value';`),
      answer,
    ]);
    const trajectory = await runEpisode({ task: query, benchmark: bench, harness: config, policy, seed: 1 });
    expect(trajectory.steps[0]?.harnessCalls?.map((entry) => entry.call.arguments.query)).toEqual([
      `SELECT DISTINCT \`${first}\` FROM \`${table}\` LIMIT 30;`,
      `SELECT DISTINCT \`${second}\` FROM \`${table}\` LIMIT 30;`,
    ]);
  });

  it("the prelude shows each column's distinct values before the first step", async () => {
    const config = sibling((draft) => {
      draft.context.prelude = dbbenchHarnessCallLibrary.preludes[0]!;
    });
    const policy = createScriptedPolicy([answer]);
    const trajectory = await runEpisode({ task: query, benchmark: bench, harness: config, policy, seed: 1 });
    const headers = query.metadata.headers as string[];
    expect(trajectory.preludeCalls).toHaveLength(Math.min(12, headers.length));
    expect(trajectory.preludeCalls?.every((entry) => !entry.result.isError)).toBe(true);
    expect(policy.views[0]?.messages.at(-1)?.content).toMatch(/^Before you start, the harness looked/);
  });

  it("an SQL error is followed by its cause and the first rows", async () => {
    const config = sibling((draft) => {
      draft.errorRecovery.followUps = [dbbenchHarnessCallLibrary.followUps[1]!];
    });
    const table = String(query.metadata.tableName);
    const policy = createScriptedPolicy([sql(`SELECT \`no such column\` FROM \`${table}\`;`), answer]);
    await runEpisode({ task: query, benchmark: bench, harness: config, policy, seed: 1 });
    expect(policy.views[1]?.messages.at(-1)?.content).toMatch(
      /The query failed \(Unknown column 'no such column[^)]*' in 'field list'\)\. The harness showed/,
    );
  });

  it("the read-back check shows the rows the last UPDATE reached before the answer is accepted", async () => {
    const table = String(update.metadata.tableName);
    const header = (update.metadata.headers as string[])[0] as string;
    const check = dbbenchHarnessCallLibrary.checkCalls[0]!;
    const config = sibling((draft) => {
      draft.verification = { enabled: true, prompt: check.prompt, maxChecks: 1, calls: check.calls };
    });
    const policy = createScriptedPolicy([
      sql(`UPDATE \`${table}\` SET \`${header}\` = 'x' WHERE \`${header}\` = 'no such value';`),
      answer,
      answer,
    ]);
    const trajectory = await runEpisode({ task: update, benchmark: bench, harness: config, policy, seed: 1 });
    expect(policy.views[2]?.messages.at(-1)?.content).toContain(
      `[harness ran execute_sql: SELECT * FROM \`${table}\` WHERE \`${header}\` = 'no such value' LIMIT 10;]\n[]`,
    );
    expect(trajectory.endReason).toBe("submitted");
  });
});
