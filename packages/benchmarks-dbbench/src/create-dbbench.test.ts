import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createDbBench } from "./create-dbbench.js";
import { v02AnswerArgument } from "./environment.js";
import { v02Preset } from "./presets.js";

const fixture = join(import.meta.dirname, "__fixtures__", "mixed.jsonl");

function renderPrompt(
  template: string,
  task: { instruction: string; metadata: Record<string, unknown> },
): string {
  return template
    .replaceAll("{instruction}", task.instruction)
    .replace(/\{metadata\.(\w+)\}/g, (_, key: string) => String(task.metadata[key]));
}

describe("loading", () => {
  it("loads the bundled splits with AgentBench categories and ids", async () => {
    const bench = createDbBench();
    const standard = await bench.loadTasks({ split: "train" });
    expect(standard.tasks).toHaveLength(148);
    expect(standard.tasks[0]?.id).toBe("dbbench/train/0");
    const dev = await bench.loadTasks({ split: "dev" });
    expect(dev.tasks.map((task) => task.category).filter((category) => category === "INSERT")).toHaveLength(
      20,
    );
    expect(dev.problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(/dev\.jsonl:6, field "table\.table_info\.columns\.0\.name"/),
    ]);
  });
  it("reports a malformed line, a record without table and a duplicate column, and loads the rest", async () => {
    const result = await createDbBench().loadTasks({ path: fixture });
    expect(result.tasks.map((task) => task.id)).toEqual(["dbbench/mixed/0", "dbbench/mixed/4"]);
    const messages = result.problems.map((problem) => problem.message);
    expect(messages[0]).toMatch(/mixed\.jsonl:2: invalid JSON/);
    expect(messages[1]).toMatch(/mixed\.jsonl:3, field "table"/);
    expect(messages[2]).toMatch(
      /mixed\.jsonl:4, field "table\.table_info\.columns\.1\.name": duplicate column name/,
    );
  });
  it("keeps labels, gold SQL and hashes out of tasks and the rendered prompt", async () => {
    const bench = createDbBench();
    for (const split of ["dev", "standard-a"]) {
      const { tasks } = await bench.loadTasks({ split });
      const lines = readFileSync(join(import.meta.dirname, "..", "data", `${split}.jsonl`), "utf8")
        .trim()
        .split("\n");
      for (const task of tasks) {
        const record = JSON.parse(lines[Number(task.id.split("/").pop())] as string) as {
          label: string[];
          answer_md5?: string;
          sql?: { query: string };
          description: string;
          add_description: string;
          table: unknown;
        };
        const publicText = record.description + record.add_description + JSON.stringify(record.table);
        const visible = JSON.stringify(task) + renderPrompt(v02Preset.prompt.taskTemplate, task);
        const secrets = [...record.label.map(String), record.answer_md5, record.sql?.query].filter(
          (secret): secret is string => secret !== undefined && secret.length > 3,
        );
        for (const secret of secrets) {
          if (publicText.includes(secret)) continue;
          expect(visible.includes(secret), `${task.id} leaks ${secret}`).toBe(false);
        }
        expect(visible).not.toMatch(/answer_md5|"label"|"sql"/);
      }
    }
  });
});

describe("episodes on SQLite", () => {
  it("replays a task and renders results as AgentBench does", async () => {
    const bench = createDbBench();
    const { tasks } = await bench.loadTasks({ split: "dev" });
    const task = tasks[0];
    if (task === undefined) throw new Error("no task");
    const environment = await bench.createEnvironment(task, { seed: 0 });
    await environment.reset();
    const result = await environment.step({
      id: "1",
      name: "execute_sql",
      arguments: {
        query:
          "SELECT `Presentation of Credentials` FROM `US Ambassadors and Envoy Extraordinary to Colombia` WHERE `Representative` = 'DABNEY H. MAURY'",
      },
    });
    expect(result).toMatchObject({ isError: false, done: false });
    expect(result.content).toBe("[('January 20, 1887',)]");
    expect((await environment.step({ id: "2", name: "drop_everything", arguments: {} })).content).toBe(
      "Invalid function call. Please call a tool instead.",
    );
    const commit = await environment.step({
      id: "3",
      name: "commit_final_answer",
      arguments: { [v02AnswerArgument]: ': ["March 19, 1998"]' },
    });
    expect(commit.done).toBe(true);
    expect(await environment.grade()).toMatchObject({
      success: true,
      reward: 1,
      details: { protocol: "v0.2" },
    });
    await environment.close();
    await environment.close();
  });
  it("survives SQL that drops the table, a query that never ends and a million-row result", async () => {
    const bench = createDbBench({ queryTimeLimitMs: 300, maxResultRows: 1000 });
    const { tasks } = await bench.loadTasks({ split: "dev" });
    const update = tasks.find((task) => task.category === "UPDATE");
    if (update === undefined) throw new Error("no UPDATE task");
    const table = `\`${String(update.metadata.tableName)}\``;
    const environment = await bench.createEnvironment(update, { seed: 0 });
    await environment.reset();
    const started = Date.now();
    const endless = await environment.step({
      id: "1",
      name: "execute_sql",
      arguments: {
        query: `SELECT COUNT(*) FROM ${table} a, ${table} b, ${table} c, ${table} d, ${table} e, ${table} f`,
      },
    });
    expect(endless).toMatchObject({ isError: true, content: "Error: SQL execution timed out." });
    expect(Date.now() - started).toBeLessThan(3000);
    const huge = await environment.step({
      id: "2",
      name: "execute_sql",
      arguments: { query: `SELECT * FROM ${table} a, ${table} b, ${table} c, ${table} d` },
    });
    expect(huge).toMatchObject({ isError: true });
    expect(huge.content).toMatch(/more than 1000 rows/);
    const still = await environment.step({
      id: "3",
      name: "execute_sql",
      arguments: { query: `SELECT COUNT(*) FROM ${table}` },
    });
    expect(still.content).toMatch(/^\[\(\d+,\)\]$/);
    expect(
      (await environment.step({ id: "4", name: "execute_sql", arguments: { query: `DROP TABLE ${table}` } }))
        .content,
    ).toBe("[]");
    await environment.step({ id: "5", name: "commit_final_answer", arguments: { answers: [] } });
    const grade = await environment.grade();
    // the table is gone: the hash query's error, never a hash nor an empty table's NULL
    expect(grade).toMatchObject({
      success: false,
      details: { actualHash: expect.stringMatching(/^error: /) },
    });
    await environment.close();
    const next = await bench.createEnvironment(update, { seed: 1 });
    await next.reset();
    expect(
      (
        await next.step({
          id: "1",
          name: "execute_sql",
          arguments: { query: `SELECT COUNT(*) FROM ${table}` },
        })
      ).isError,
    ).toBe(false);
    await next.close();
  });
  it("summarizes with AgentBench's metric names", () => {
    const metrics = createDbBench().summarize([
      { category: "counting", success: true, reward: 1 },
      { category: "INSERT", success: false, reward: 0 },
      { category: "UPDATE", success: true, reward: 1 },
    ]);
    expect(metrics).toMatchObject({
      counting_accuracy: 1,
      SELECT_accuracy: 1,
      INSERT_accuracy: 0,
      UPDATE_accuracy: 1,
    });
    expect(metrics.overall_cat_accuracy).toBeCloseTo(2 / 3);
  });
});
