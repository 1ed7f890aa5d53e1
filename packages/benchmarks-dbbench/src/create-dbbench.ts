import { readFile as readFileFromDisk } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type ActionGrammarV1,
  type BenchmarkV1,
  type CreateEnvironmentOptions,
  EnvironmentError,
  type EnvironmentV1,
  type EpisodeOutcome,
  type GoldReplayOptionsV1,
  type GoldReplayReportV1,
  InvalidInputError,
  type LoadTasksOptions,
  type LoadTasksResult,
  type Task,
} from "@hs/spec";
import type { DbBenchRecord } from "./data/dbbench-record.js";
import { parseRecords } from "./data/load-records.js";
import type { DatabaseEngine, StatementLimits } from "./engines/database-engine.js";
import { createMysqlEngine } from "./engines/mysql-engine.js";
import { createSqliteEngine } from "./engines/sqlite-engine.js";
import { DbBenchEnvironment, type ProtocolChoice } from "./environment.js";
import { dbbenchLibrary } from "./evolution-library.js";
import { dbbenchConventions } from "./failure-conventions.js";
import { observableCategory } from "./observable-category.js";
import { dbbenchPresets } from "./presets.js";
import { recordsOf } from "./records-of.js";
import { goldReplayReport } from "./replay/gold-replay-report.js";
import { summarizeOutcomes } from "./summarize.js";

/** Options of `createDbBench`. */
export interface DbBenchOptions {
  /** `sqlite` (default, in process), a `mysql://user:password@host:port` URL, or an engine object. */
  engine?: "sqlite" | string | DatabaseEngine;
  /** Milliseconds one statement may run (default 60000, AgentBench FC's `asyncio.wait_for(..., 60)`). */
  queryTimeLimitMs?: number;
  /** Result rows one statement may return (default 100000). */
  maxResultRows?: number;
  /**
   * Which AgentBench grader decides an episode (default `auto`): `v0.2`, `fc`, or `auto`, where the
   * v0.2 preset's "Final Answer:" line (its `final_answer_line` argument) is graded by v0.2's rules
   * and any other `commit_final_answer` call (an FC tool call, list or string) by FC's; an episode
   * without a commit is graded as v0.2
   * grades it (INSERT/UPDATE by the table hash all the same). Set `fc` when running the FC preset to
   * get FC's rule that nothing counts without a commit. `v0.2` also joins SQL lines as v0.2 does.
   */
  protocol?: ProtocolChoice;
  /** Folder with the bundled splits (default: the package's `data/`). */
  dataDirectory?: string;
  /** Reads a file as UTF-8 (injectable for tests). */
  readFile?: (path: string) => Promise<string>;
  /** Clock (injectable for tests). */
  now?: () => number;
  /** Action grammar for the embedded policy, when one is supplied. */
  actionGrammar?: ActionGrammarV1;
}

export { recordsOf } from "./records-of.js";

/** A DBBench benchmark instance; `engine` is exposed for gold replay and engine comparison. */
export interface DbBench extends BenchmarkV1 {
  /** The engine episodes run on. */
  readonly engine: DatabaseEngine;
  /** Releases the engine (connection pools). */
  close(): Promise<void>;
  /** The category the instruction shows (see `observableCategory`). */
  observableCategory(task: Task): string;
  /** Gold replay as a `GoldReplayReportV1` (see `goldReplayReport`). */
  goldReplay(options: GoldReplayOptionsV1): Promise<GoldReplayReportV1>;
}

const bundledSplits: Record<string, string> = {
  "standard-a": "standard-a.jsonl",
  train: "standard-a.jsonl",
  dev: "dev.jsonl",
  heldout: "dev.jsonl",
};

function defaultDataDirectory(): string {
  return join(dirname(fileURLToPath(import.meta.url)), "..", "data");
}

/** The engine `options.engine` names: a given engine, SQLite, or MySQL at a mysql:// URL. */
function engineOf(options: DbBenchOptions, now: () => number): DatabaseEngine {
  const limits: StatementLimits = {
    timeLimitMs: options.queryTimeLimitMs ?? 60_000,
    maxRows: options.maxResultRows ?? 100_000,
  };
  const engineOption = options.engine ?? "sqlite";
  if (typeof engineOption !== "string") return engineOption;
  if (engineOption === "sqlite") return createSqliteEngine({ limits, now });
  if (/^mysql:\/\//.test(engineOption)) return createMysqlEngine({ url: engineOption, limits });
  throw new InvalidInputError(`expected "sqlite" or a mysql:// URL, got "${engineOption}"`, {
    field: "engine",
  });
}

/** The file `loadTasks` reads and the split its tasks belong to: a given path, or a bundled split. */
function dataFileOf(loadOptions: LoadTasksOptions, dataDirectory: string): { file: string; split: string } {
  if (loadOptions.path !== undefined) {
    const file = loadOptions.path;
    return { file, split: basename(file, extname(file)) };
  }
  const requested = loadOptions.split ?? "standard-a";
  const fileName = bundledSplits[requested];
  if (fileName === undefined) {
    throw new InvalidInputError(
      `unknown split "${requested}"; expected one of ${Object.keys(bundledSplits).join(", ")}`,
      {
        field: "split",
      },
    );
  }
  return { file: join(dataDirectory, fileName), split: requested };
}

/**
 * Creates the DBBench benchmark (AgentBench's DB task). Splits `standard-a` (alias `train`) and
 * `dev` (alias `heldout`) are bundled; `loadTasks({ path })` loads any file of the format. Labels,
 * reference SQL and hashes stay in a private map of this instance, never in a Task.
 */
export function createDbBench(options: DbBenchOptions = {}): DbBench {
  const now = options.now ?? Date.now;
  const engine = engineOf(options, now);
  const protocol = options.protocol ?? "auto";
  const readFile = options.readFile ?? ((path: string) => readFileFromDisk(path, "utf8"));
  const dataDirectory = options.dataDirectory ?? defaultDataDirectory();
  const records = new Map<string, DbBenchRecord>();

  const benchmark: DbBench = {
    specificationVersion: "v1",
    id: "dbbench",
    splits: ["standard-a", "dev"],
    engine,
    presets: dbbenchPresets,
    defaultPreset: "v0.2",
    trainSplit: "standard-a",
    heldoutSplits: ["dev"],
    failureConventions: dbbenchConventions,
    evolutionLibrary: dbbenchLibrary,
    observableCategory,
    ...(options.actionGrammar === undefined ? {} : { actionGrammar: options.actionGrammar }),
    async loadTasks(loadOptions: LoadTasksOptions): Promise<LoadTasksResult> {
      const { file, split } = dataFileOf(loadOptions, dataDirectory);
      let text: string;
      try {
        text = await readFile(file);
      } catch (error) {
        throw new InvalidInputError(
          `cannot read DBBench data: ${(error as Error).message}`,
          { file },
          { cause: error },
        );
      }
      const parsed = parseRecords(text, file, split);
      for (const { task, record } of parsed.records) records.set(task.id, record);
      return { tasks: parsed.records.map(({ task }) => task), problems: parsed.problems };
    },
    async createEnvironment(
      task: Task,
      _environmentOptions: CreateEnvironmentOptions,
    ): Promise<EnvironmentV1> {
      const record = records.get(task.id);
      if (record === undefined) {
        throw new EnvironmentError(
          `unknown task "${task.id}": load it with loadTasks() on this benchmark instance first`,
        );
      }
      return new DbBenchEnvironment(record, { engine, protocol, now });
    },
    goldReplay(replayOptions: GoldReplayOptionsV1): Promise<GoldReplayReportV1> {
      return goldReplayReport(benchmark, replayOptions, protocol === "fc" ? "fc" : "v0.2");
    },
    summarize(outcomes: readonly EpisodeOutcome[]): Record<string, number> {
      return summarizeOutcomes(outcomes);
    },
    async close() {
      await engine.close();
    },
  };
  recordsOf.set(benchmark, (taskId) => records.get(taskId));
  return benchmark;
}
