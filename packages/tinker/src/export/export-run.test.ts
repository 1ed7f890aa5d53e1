import { appendFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultTrainerConfig, trainGrpo } from "@hs/rescue-grpo";
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTinyStack } from "../__fixtures__/tiny-stack.js";
import { exportRun } from "./export-run.js";

let runDirectory = "";
const capitals: Record<string, string> = {
  "capitals/france": "paris",
  "capitals/peru": "lima",
  "capitals/japan": "tokyo",
  "capitals/kenya": "nairobi",
};

beforeAll(async () => {
  runDirectory = await mkdtemp(join(tmpdir(), "hs-export-"));
  const stack = await startTinyStack();
  try {
    const { tasks } = await stack.benchmark.loadTasks({ split: "train" });
    const config = {
      ...defaultTrainerConfig("grpo", 2),
      groupSize: 4,
      promptsPerStep: 4,
      rolloutBudget: 32,
      checkpointEvery: 0,
    };
    await trainGrpo({ ...stack, tasks, outDirectory: runDirectory }, config);
  } finally {
    await stack.close();
  }
  await appendFile(join(runDirectory, "trajectories.jsonl"), '{"schemaVersion": 1, "id": "broken"}\n');
}, 60_000);
afterAll(async () => {
  await rm(runDirectory, { recursive: true, force: true });
});

describe("exportRun", () => {
  it("writes TRL conversational rows with reward, advantage, harness and token masks; skips a bad line", async () => {
    const outFile = join(runDirectory, "export", "trl.jsonl");
    const summary = await exportRun({ runDirectory, format: "trl", outFile });
    expect(summary.trajectories).toBe(32);
    expect(summary.problems).toHaveLength(1);
    expect(summary.problems[0]?.message).toMatch(/trajectories\.jsonl:33/);
    const rows = (await readFile(outFile, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(rows).toHaveLength(32);
    const [row] = rows;
    expect(row.messages[0]).toEqual({
      role: "user",
      content: expect.stringMatching(/^capital (france|peru|japan|kenya)$/),
    });
    expect(row.messages[1].role).toBe("assistant");
    expect(row.harness_id).toBe("capitals-text");
    expect(row.tools).toEqual([]);
    const groupAdvantages = rows.filter((other) => other.group === row.group).map((other) => other.advantage);
    expect(groupAdvantages).toHaveLength(4);
    expect(groupAdvantages.reduce((sum: number, value: number) => sum + value, 0)).toBeCloseTo(0, 10);
    const tokens = row.tokens[0];
    expect(tokens.input_ids.slice(0, 7)).toEqual([0, 4, 6, expect.any(Number), 1, 0, 5]);
    expect(tokens.action_mask.slice(0, 7)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(tokens.action_mask.slice(7).every((value: number) => value === 1)).toBe(true);
  });

  it("writes TRL prompt-only rows for GRPOTrainer, one per task", async () => {
    const outFile = join(runDirectory, "export", "prompts.jsonl");
    const summary = await exportRun({ runDirectory, format: "trl-prompt", outFile });
    const rows = (await readFile(outFile, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(summary.rows).toBe(4);
    expect(rows.map((row) => row.task_id).sort()).toEqual(Object.keys(capitals).sort());
    expect(rows[0].prompt).toHaveLength(1);
    expect(Object.keys(rows[0]).sort()).toEqual(["prompt", "task_id", "tools"]);
  });

  it("writes verl parquet rows that read back with hyparquet", async () => {
    const outFile = join(runDirectory, "export", "verl.parquet");
    await exportRun({ runDirectory, format: "verl", outFile, groundTruth: (taskId) => capitals[taskId] });
    const rows = await parquetReadObjects({ file: await asyncBufferFromFile(outFile) });
    expect(rows).toHaveLength(4);
    const france = rows.find((row) => row.extra_info.task_id === "capitals/france");
    expect(france).toEqual({
      data_source: "capitals",
      prompt: [{ role: "user", content: "capital france" }],
      ability: "capital",
      reward_model: { style: "rule", ground_truth: "paris" },
      extra_info: {
        index: expect.any(Number),
        split: "train",
        task_id: "capitals/france",
        harness_id: "capitals-text",
        tools: "[]",
      },
    });
  });

  it("leaves ground_truth null when no answers are supplied (a run holds no gold)", async () => {
    const outFile = join(runDirectory, "export", "verl-no-gold.parquet");
    await exportRun({ runDirectory, format: "verl", outFile });
    const rows = await parquetReadObjects({ file: await asyncBufferFromFile(outFile) });
    expect(rows.every((row) => row.reward_model.ground_truth === null)).toBe(true);
  });
});
