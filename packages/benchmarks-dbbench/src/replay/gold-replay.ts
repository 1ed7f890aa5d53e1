import type { LoadTasksOptions, Task } from "@hs/spec";
import type { DbBench } from "../create-dbbench.js";
import { type DbBenchRecord, modificationTypes, recordLabel } from "../data/dbbench-record.js";
import { v02AnswerArgument } from "../environment.js";
import type { GradingProtocol } from "../grading/grade-answer.js";
import { pythonEval } from "../python/python-eval.js";
import { pythonStr } from "../python/python-value.js";
import { recordsOf } from "../records-of.js";

/** One replayed task. */
export interface GoldReplayCase {
  /** Task id. */
  taskId: string;
  /** Task type. */
  category: string;
  /** What was replayed: the label SQL (INSERT/UPDATE), the label as answer, or the dataset's `sql.query`. */
  kind: "label-sql" | "label-answer" | "dataset-sql";
  /** Whether the grader passed it. */
  passed: boolean;
  /** Why it failed (SQL error, hash mismatch, answer mismatch). */
  reason?: string;
}

/** Pass counts. */
export interface PassCount {
  /** Passed. */
  passed: number;
  /** Replayed. */
  total: number;
}

/** The result of a gold replay. */
export interface GoldReplayReport {
  /** Engine description. */
  engine: string;
  /** Grader used. */
  protocol: GradingProtocol;
  /** Passed tasks of the graded part (label SQL and label answers). */
  passed: number;
  /** Tasks of the graded part. */
  total: number;
  /** Graded part per task type. */
  perType: Record<string, PassCount>;
  /** Every failure of the graded part. */
  failures: GoldReplayCase[];
  /** For information: the dataset's own `sql.query` of query tasks, graded the same way. */
  datasetSql: PassCount & { failures: GoldReplayCase[] };
  /** Records that did not load. */
  problems: string[];
  /** Wall time of the graded part. */
  elapsedMs: number;
  /** Graded episodes per second. */
  episodesPerSecond: number;
}

/** Options of `goldReplay`. */
export interface GoldReplayOptions {
  /** The benchmark (its engine runs the episodes). */
  benchmark: DbBench;
  /** Which tasks: a bundled split or a file. */
  tasks: LoadTasksOptions;
  /** Grader (default v0.2, the default preset's). */
  protocol?: GradingProtocol;
  /** Skip the informational dataset-SQL part. */
  skipDatasetSql?: boolean;
  /** Progress callback. */
  onProgress?: (done: number, total: number) => void;
  /** Cancels the replay between tasks. */
  signal?: AbortSignal;
}

function answerFor(values: readonly string[], protocol: GradingProtocol): Record<string, unknown> {
  // v0.2: the text of a `Final Answer: [...]` line as the v0.2 preset captures it (colon kept)
  return protocol === "v0.2"
    ? { [v02AnswerArgument]: `: ${JSON.stringify(values)}` }
    : { answers: [...values] };
}

async function replayOne(
  benchmark: DbBench,
  task: Task,
  record: DbBenchRecord,
  kind: GoldReplayCase["kind"],
  protocol: GradingProtocol,
): Promise<GoldReplayCase> {
  const environment = await benchmark.createEnvironment(task, { seed: 0 });
  const base = { taskId: task.id, category: task.category, kind };
  try {
    await environment.reset();
    if (kind === "label-sql") {
      const sql = recordLabel(record)[0] ?? "";
      const result = await environment.step({ id: "gold-0", name: "execute_sql", arguments: { query: sql } });
      await environment.step({
        id: "gold-1",
        name: "commit_final_answer",
        arguments: answerFor([], protocol),
      });
      const grade = await environment.grade();
      if (grade.success) return { ...base, passed: true };
      const reason = result.isError
        ? `label SQL failed: ${result.content}`
        : `table hash ${String(grade.details.actualHash)} != expected ${String(grade.details.expectedHash)}`;
      return { ...base, passed: false, reason };
    }
    if (kind === "label-answer") {
      const label = recordLabel(record);
      await environment.step({
        id: "gold-0",
        name: "commit_final_answer",
        arguments: answerFor(label, protocol),
      });
      const grade = await environment.grade();
      return grade.success
        ? { ...base, passed: true }
        : { ...base, passed: false, reason: `label ${JSON.stringify(label)} not accepted` };
    }
    const sql = record.sql?.query ?? "";
    const result = await environment.step({ id: "gold-0", name: "execute_sql", arguments: { query: sql } });
    if (result.isError) {
      await environment.step({
        id: "gold-1",
        name: "commit_final_answer",
        arguments: answerFor([], protocol),
      });
      return { ...base, passed: false, reason: `dataset SQL failed: ${result.content.slice(0, 200)}` };
    }
    const data = result.data as { rowCount: number } | undefined;
    const values = parseCells(result.content);
    await environment.step({
      id: "gold-1",
      name: "commit_final_answer",
      arguments: answerFor(values, protocol),
    });
    const grade = await environment.grade();
    return grade.success
      ? { ...base, passed: true }
      : {
          ...base,
          passed: false,
          reason: `result ${result.content.slice(0, 160)} (${data?.rowCount ?? 0} rows) vs label ${JSON.stringify(recordLabel(record))}`,
        };
  } finally {
    await environment.close();
  }
}

/** The outcome of committing an empty answer without running anything. */
export interface EmptyReplayCase {
  /** Task id. */
  taskId: string;
  /** Task type. */
  category: string;
  /** Whether the grader passed the empty solution. */
  passed: boolean;
}

/**
 * Commits an empty answer (`[]`, as the protocol sends it) in each task without running anything and
 * grades it: an INSERT/UPDATE passes only when the unchanged table already has the expected hash, a
 * query only when its label is empty.
 */
export async function emptyReplay(
  benchmark: DbBench,
  tasks: readonly Task[],
  protocol: GradingProtocol,
  signal?: AbortSignal,
): Promise<EmptyReplayCase[]> {
  const cases: EmptyReplayCase[] = [];
  for (const task of tasks) {
    signal?.throwIfAborted();
    const environment = await benchmark.createEnvironment(task, { seed: 0 });
    try {
      await environment.reset();
      await environment.step({
        id: "empty-0",
        name: "commit_final_answer",
        arguments: answerFor([], protocol),
      });
      const grade = await environment.grade();
      cases.push({ taskId: task.id, category: task.category, passed: grade.success });
    } finally {
      await environment.close();
    }
  }
  return cases;
}

function parseCells(content: string): string[] {
  const value = pythonEval(content);
  if (value?.kind !== "list") return [];
  return value.items.flatMap((row) => (row.kind === "tuple" ? row.items.map(pythonStr) : [pythonStr(row)]));
}

/**
 * Runs each task's reference solution through the adapter and grades it with the episode's own code
 * path: the label SQL for INSERT/UPDATE/DELETE (graded by the table hash), the label submitted as the
 * final answer for query types; and, reported apart and for information only, the dataset's own
 * `sql.query` of query tasks with its result submitted as the answer.
 */
export async function goldReplay(options: GoldReplayOptions): Promise<GoldReplayReport> {
  const { benchmark } = options;
  const protocol = options.protocol ?? "v0.2";
  const loaded = await benchmark.loadTasks(options.tasks);
  const lookup = recordsOf.get(benchmark);
  if (lookup === undefined) throw new Error("goldReplay needs a benchmark made by createDbBench");
  const perType: Record<string, PassCount> = {};
  const failures: GoldReplayCase[] = [];
  let passed = 0;
  const started = Date.now();
  let done = 0;
  for (const task of loaded.tasks) {
    options.signal?.throwIfAborted();
    const record = lookup(task.id) as DbBenchRecord;
    const kind = modificationTypes.has(task.category) ? "label-sql" : "label-answer";
    const outcome = await replayOne(benchmark, task, record, kind, protocol);
    const count = perType[task.category] ?? { passed: 0, total: 0 };
    perType[task.category] = count;
    count.total += 1;
    if (outcome.passed) {
      count.passed += 1;
      passed += 1;
    } else failures.push(outcome);
    done += 1;
    options.onProgress?.(done, loaded.tasks.length);
  }
  const elapsedMs = Date.now() - started;
  const datasetSql = { passed: 0, total: 0, failures: [] as GoldReplayCase[] };
  if (options.skipDatasetSql !== true) {
    for (const task of loaded.tasks) {
      const record = lookup(task.id) as DbBenchRecord;
      if (modificationTypes.has(task.category) || record.sql === undefined) continue;
      const outcome = await replayOne(benchmark, task, record, "dataset-sql", protocol);
      datasetSql.total += 1;
      if (outcome.passed) datasetSql.passed += 1;
      else datasetSql.failures.push(outcome);
    }
  }
  return {
    passed,
    total: loaded.tasks.length,
    engine: await benchmark.engine.describe(),
    protocol,
    perType,
    failures,
    datasetSql,
    problems: loaded.problems.map((problem) => problem.message),
    elapsedMs,
    episodesPerSecond: elapsedMs === 0 ? loaded.tasks.length : (loaded.tasks.length * 1000) / elapsedMs,
  };
}
