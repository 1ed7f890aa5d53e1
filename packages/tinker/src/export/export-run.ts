import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { readTrajectories } from "@hs/harness";
import type { InvalidInputError, Trajectory } from "@hs/spec";
import { parquetWriteBuffer } from "hyparquet-writer";
import {
  conversationMessages,
  exportTool,
  type GroupAdvantages,
  promptMessages,
  type TrajectoryRecord,
  trajectoryTokens,
  withAdvantages,
} from "./export-rows.js";
import { verlSchema } from "./verl-schema.js";

/** Export formats. */
export const exportFormats = ["trl", "trl-prompt", "verl"] as const;
/** Export format. */
export type ExportFormat = (typeof exportFormats)[number];

/** Options of `exportRun`. */
export interface ExportRunOptions {
  /** Run directory holding `trajectories.jsonl`. */
  runDirectory: string;
  /**
   * `trl`: one conversational row per trajectory (TRL `messages` + `tools`, with reward, advantage,
   * harness, token ids and masks where known); `trl-prompt`: one prompt-only row per task (TRL
   * GRPOTrainer's `prompt`); `verl`: one parquet row per task (`data_source`, `prompt`, `ability`,
   * `reward_model`, `extra_info`).
   */
  format: ExportFormat;
  /** Output file. */
  outFile: string;
  /**
   * The answer a verl rule reward compares with, by task id. A run holds no gold (tasks never do);
   * a caller with access to the benchmark's answers may supply them. Absent: `ground_truth` is null.
   */
  groundTruth?: (taskId: string) => string | undefined;
  /**
   * The trainer's group advantages (`groupAdvantages` of `@hs/rescue-grpo` with the run's method), so
   * exported rows carry the advantages that were trained on. Absent: `(r - mean) / (sample std + 1e-6)`.
   */
  advantages?: GroupAdvantages;
}

/** What an export wrote. */
export interface ExportSummary {
  /** Rows written. */
  rows: number;
  /** Trajectories read. */
  trajectories: number;
  /** Bad lines of `trajectories.jsonl` (skipped; the rest was exported). */
  problems: InvalidInputError[];
}

/** Writes a run's trajectories for a Python trainer (TRL or verl). */
export async function exportRun(options: ExportRunOptions): Promise<ExportSummary> {
  const { records: trajectories, problems } = await readTrajectories(
    join(options.runDirectory, "trajectories.jsonl"),
  );
  const records = withAdvantages(trajectories, options.advantages);
  await mkdir(dirname(options.outFile), { recursive: true });
  if (options.format === "verl") {
    const rows = firstPerTask(records);
    await writeFile(options.outFile, verlParquet(rows, options.groundTruth));
    return { rows: rows.length, trajectories: trajectories.length, problems };
  }
  const rows = options.format === "trl" ? records.map(trlRow) : firstPerTask(records).map(trlPromptRow);
  await writeFile(options.outFile, rows.map((row) => `${JSON.stringify(row)}\n`).join(""));
  return { rows: rows.length, trajectories: trajectories.length, problems };
}

function firstPerTask(records: readonly TrajectoryRecord[]): TrajectoryRecord[] {
  const seen = new Set<string>();
  return records.filter((record) => {
    if (seen.has(record.trajectory.taskId)) return false;
    seen.add(record.trajectory.taskId);
    return true;
  });
}

function offeredTools(trajectory: Trajectory) {
  return (trajectory.steps[0]?.view.tools ?? []).map(exportTool);
}

function trlRow(record: TrajectoryRecord): Record<string, unknown> {
  const { trajectory } = record;
  return {
    messages: conversationMessages(trajectory),
    tools: offeredTools(trajectory),
    reward: trajectory.reward,
    advantage: record.advantage,
    group: record.group,
    harness_id: trajectory.harnessId,
    task_id: trajectory.taskId,
    trajectory_id: trajectory.id,
    policy_version: trajectory.policyVersion,
    tokens: trajectoryTokens(trajectory),
  };
}

function trlPromptRow(record: TrajectoryRecord): Record<string, unknown> {
  const { trajectory } = record;
  return { prompt: promptMessages(trajectory), tools: offeredTools(trajectory), task_id: trajectory.taskId };
}

function verlParquet(
  records: readonly TrajectoryRecord[],
  groundTruth: ExportRunOptions["groundTruth"],
): Uint8Array {
  const buffer = parquetWriteBuffer({
    schema: verlSchema,
    columnData: [
      { name: "data_source", data: records.map((record) => record.trajectory.benchmark) },
      {
        name: "prompt",
        data: records.map((record) =>
          promptMessages(record.trajectory).map((message) => ({
            role: message.role,
            content: message.content,
          })),
        ),
      },
      { name: "ability", data: records.map((record) => record.trajectory.category) },
      {
        name: "reward_model",
        data: records.map((record) => ({
          style: "rule",
          ground_truth: groundTruth?.(record.trajectory.taskId) ?? null,
        })),
      },
      {
        name: "extra_info",
        data: records.map((record, index) => ({
          index,
          split: record.trajectory.split,
          task_id: record.trajectory.taskId,
          harness_id: record.trajectory.harnessId,
          tools: JSON.stringify(offeredTools(record.trajectory)),
        })),
      },
    ],
  });
  return new Uint8Array(buffer);
}
