import { readFile as readFileFromDisk } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import {
  type ActionGrammarV1,
  type BenchmarkV1,
  type CreateEnvironmentOptions,
  type EnvironmentV1,
  type EpisodeOutcome,
  type GoldReplayOptionsV1,
  type GoldReplayReportV1,
  InvalidInputError,
  type LoadTasksOptions,
  type LoadTasksResult,
  type Task,
} from "@hs/spec";
import { readGroundTruthMetadata, readGroundTruthSolution } from "./dataset/appworld-data.js";
import { AppWorldEnvironment } from "./environment.js";
import { appworldLibrary } from "./evolution-library.js";
import { appworldConventions } from "./failure-conventions.js";
import { parseTaskIds } from "./load-task-ids.js";
import {
  computeAppWorldMetrics,
  flattenMetrics,
  scenarioOfTaskId,
  type TaskEvaluationRecord,
} from "./metrics/appworld-metrics.js";
import { appworldPresets } from "./presets.js";
import { AppWorldClient, type AppWorldClientOptions } from "./protocol/appworld-client.js";
import type { InitializeOptions, TaskInfo } from "./protocol/schemas.js";
import { ServerPool } from "./protocol/server-pool.js";
import { EvaluationRecorder } from "./real/evaluation-files.js";
import { ExperimentNames } from "./real/experiment-names.js";
import { goldReplay, offlineGoldReplay } from "./replay/gold-replay.js";
import { offlineTask, offlineTaskIds } from "./world/offline-tasks.js";
import { OfflineWorld } from "./world/offline-world.js";
import type { SandboxMode } from "./world/python-shell.js";
import { type OfflineSplit, offlineSplits } from "./world/world-task.js";

/** Options of `createAppWorld`. */
export interface AppWorldOptions {
  /** Base URLs of real `appworld serve environment` processes, one per parallel episode; absent: the offline world. */
  serverUrls?: readonly string[];
  /** Experiment name sent to `/initialize` (default `harness-s`). */
  experimentName?: string;
  /** The AppWorld root of a real install (holds data/datasets/<split>.txt); needed to load real splits. */
  appworldRoot?: string;
  /** Offline servers started, i.e. parallel offline episodes (default 4). */
  parallelism?: number;
  /** Sandbox of offline Python (default bwrap when installed). */
  sandbox?: SandboxMode;
  /** Seconds one offline execute may run (default 10). */
  timeoutSeconds?: number;
  /** Characters of output per offline execute (default 50,000). */
  maxOutputChars?: number;
  /** Client settings (time limits, retries, fetch). */
  client?: Omit<AppWorldClientOptions, "baseUrl">;
  /**
   * Options every `/initialize` of a real server gets (`max_interactions`, `random_seed`,
   * `remote_apis_url`, ...; `AppWorldInitDefaults` in src/appworld/environment.py:85-98).
   * `timeoutSeconds` is sent as `timeout_seconds` as well.
   */
  initializeOptions?: InitializeOptions;
  /** This run's id in each episode's experiment name (default: start time and random bytes). */
  runId?: string;
  /**
   * Where `<experiment>/evaluations/<dataset>.json` files are kept, rewritten after each evaluation (default
   * `<appworldRoot>/experiments/outputs` when `appworldRoot` is given; otherwise none are written).
   */
  outputsDirectory?: string;
  /** The embedded policy's action grammar (`hs` loads `@hs/grammar-appworld` and hands it over). */
  actionGrammar?: ActionGrammarV1;
  /** Reads a file as UTF-8 (injectable for tests). */
  readFile?: (path: string) => Promise<string>;
}

/** An AppWorld benchmark instance. */
export interface AppWorld extends BenchmarkV1 {
  /** Whether episodes run on the offline world. */
  readonly offline: boolean;
  /** Stops offline servers. Safe to call twice. */
  close(): Promise<void>;
}

/** The real AppWorld's splits (data/datasets/*.txt). */
export const realSplits = ["train", "dev", "test_normal", "test_challenge"] as const;

/** App names and the words that name them in instructions (AppWorld's own apps and the offline ones). */
const appWords: ReadonlyArray<[string, RegExp]> = [
  ...["spotify", "venmo", "gmail", "simple_note", "todoist", "splitwise", "amazon", "file_system"].map(
    (name): [string, RegExp] => [name, new RegExp(`\\b${name}\\b`)],
  ),
  ["music", /\b(music|playlists?|songs?)\b/],
  ["payments", /\b(payments?|paid|pay)\b/],
  ["email", /\b(e-?mails?|inbox|drafts?)\b/],
  ["notes", /\bnotes?\b/],
  ["todo", /\bto-?do\b/],
  ["phone", /\b(phone|contacts?|alarms?|text messages?)\b/],
  ["files", /\b(files?|director(y|ies))\b/],
];

/** A Task from the server's description (no gold: AppWorld's task description holds none). */
export function taskFromInfo(info: TaskInfo, split: string, category: string): Task {
  const { supervisor } = info;
  return {
    id: info.task_id,
    benchmark: "appworld",
    split,
    category,
    instruction: info.instruction,
    metadata: {
      appworldTaskId: info.task_id,
      supervisorName: `${supervisor.first_name} ${supervisor.last_name}`,
      supervisorEmail: supervisor.email,
      supervisorPhone: supervisor.phone_number,
      datetime: info.datetime,
    },
  };
}

/**
 * The category of a real task, `difficulty_N:<scenario>`: the scenario is the id before `_`
 * (`task_id_to_generator_id`, src/appworld/task.py:280-283), the difficulty is read from
 * `ground_truth/metadata.json` under the AppWorld root as `load_task_ids` reads it (task.py:260-265);
 * without a root, or without that file, the difficulty is 0 and the task counts only in the aggregate.
 */
async function realCategory(taskId: string, appworldRoot: string | undefined): Promise<string> {
  const scenario = scenarioOfTaskId(taskId);
  if (appworldRoot === undefined) return `difficulty_0:${scenario}`;
  const metadata = await readGroundTruthMetadata(appworldRoot, taskId).catch(() => undefined);
  return `difficulty_${metadata?.difficulty ?? 0}:${scenario}`;
}

function offlineCategory(taskId: string): string {
  const task = offlineTask(taskId);
  return task === undefined ? "unknown" : `difficulty_${task.difficulty}:${task.scenarioId}`;
}

function offlineInfo(taskId: string): TaskInfo | undefined {
  const task = offlineTask(taskId);
  if (task === undefined) return undefined;
  const supervisor = task.start.people[0];
  return {
    task_id: taskId,
    instruction: task.instruction,
    supervisor: {
      first_name: supervisor?.first_name ?? "",
      last_name: supervisor?.last_name ?? "",
      email: supervisor?.email ?? "",
      phone_number: supervisor?.phone_number ?? "",
    },
    datetime: task.start.datetime,
  };
}

/** The metrics of outcomes whose category is `difficulty_N:<scenario>` (each outcome one task). */
export function summarizeAppWorld(outcomes: readonly EpisodeOutcome[]): Record<string, number> {
  const records: TaskEvaluationRecord[] = outcomes.map((outcome, index) => {
    const match = /^difficulty_(\d):([A-Za-z0-9]+)$/.exec(outcome.category);
    return {
      taskId: `${match?.[2] ?? "unknown"}_${index}`,
      success: outcome.success,
      difficulty: Number(match?.[1] ?? 0),
    };
  });
  return flattenMetrics(computeAppWorldMetrics(records));
}

/**
 * Gold replay over real servers, as `appworld verify tasks` does (src/appworld/verify.py:102-139):
 * each task's ground-truth solution, read from the AppWorld root, then `/evaluate`; and an empty
 * episode that must fail.
 */
async function realGoldReplay(
  benchmark: BenchmarkV1,
  replayOptions: GoldReplayOptionsV1,
  options: AppWorldOptions,
): Promise<GoldReplayReportV1> {
  const root = options.appworldRoot;
  if (root === undefined)
    throw new InvalidInputError(
      "a gold replay on real AppWorld servers reads the ground truth under --appworld-root",
      {
        field: "appworldRoot",
      },
    );
  return await goldReplay(benchmark, replayOptions, {
    concurrency: options.serverUrls?.length ?? 1,
    world: "real",
    solutionOf: (task) => readGroundTruthSolution(root, String(task.metadata.appworldTaskId ?? task.id)),
  });
}

/** Where tasks are described (the offline world, or the first real server) and how task files are read. */
interface TaskSource {
  offline: boolean;
  options: AppWorldOptions;
  readFile: (path: string) => Promise<string>;
  clientOptions: Omit<AppWorldClientOptions, "baseUrl">;
}

async function describeTask(source: TaskSource, taskId: string): Promise<TaskInfo | undefined> {
  if (source.offline) return offlineInfo(taskId);
  const url = source.options.serverUrls?.[0] as string;
  return await new AppWorldClient({ ...source.clientOptions, baseUrl: url }).getTask(taskId);
}

/** The task of one id of a task file, or the problem that names its line. */
async function taskOfId(
  source: TaskSource,
  { taskId, line }: { taskId: string; line: number },
  file: string,
  split: string,
): Promise<Task | InvalidInputError> {
  try {
    const info = await describeTask(source, taskId);
    if (info === undefined)
      return new InvalidInputError(`no task "${taskId}" in the offline world`, {
        file,
        line,
        field: "task_id",
      });
    const category = source.offline
      ? offlineCategory(taskId)
      : await realCategory(taskId, source.options.appworldRoot);
    return taskFromInfo(info, split, category);
  } catch (error) {
    return new InvalidInputError(
      `cannot describe task "${taskId}": ${(error as Error).message}`,
      { file, line, field: "task_id" },
      { cause: error },
    );
  }
}

/** The tasks of a file of task ids (one per line, as AppWorld's data/datasets/<split>.txt). */
async function loadTaskIdFile(source: TaskSource, file: string, split: string): Promise<LoadTasksResult> {
  let text: string;
  try {
    text = await source.readFile(file);
  } catch (error) {
    throw new InvalidInputError(
      `cannot read AppWorld task ids: ${(error as Error).message}`,
      { file },
      { cause: error },
    );
  }
  const parsed = parseTaskIds(text, file);
  const tasks: Task[] = [];
  const problems = [...parsed.problems];
  for (const id of parsed.ids) {
    const task = await taskOfId(source, id, file, split);
    if (task instanceof InvalidInputError) problems.push(task);
    else tasks.push(task);
  }
  return { tasks, problems };
}

/** The tasks of a split: the offline world's own, or a real install's data/datasets/<split>.txt. */
async function loadSplit(
  source: TaskSource,
  splits: readonly string[],
  split: string,
): Promise<LoadTasksResult> {
  if (!splits.includes(split)) {
    throw new InvalidInputError(`unknown split "${split}"; expected one of ${splits.join(", ")}`, {
      field: "split",
    });
  }
  if (source.offline) {
    const ids = offlineTaskIds(split as OfflineSplit);
    return {
      tasks: ids.map((taskId) =>
        taskFromInfo(offlineInfo(taskId) as TaskInfo, split, offlineCategory(taskId)),
      ),
      problems: [],
    };
  }
  const root = source.options.appworldRoot;
  if (root === undefined) {
    throw new InvalidInputError("loading a real AppWorld split needs the AppWorld root (appworld-root)", {
      field: "appworldRoot",
    });
  }
  return await loadTaskIdFile(source, join(root, "data", "datasets", `${split}.txt`), split);
}

/** The first app the instruction names (`appworld` when none). */
function observableAppOf(task: Task): string {
  const text = task.instruction.toLowerCase();
  const found = appWords
    .map(([name, pattern]) => ({ name, at: text.search(pattern) }))
    .filter((entry) => entry.at >= 0)
    .sort((left, right) => left.at - right.at)[0];
  return found?.name ?? "appworld";
}

/** What `/initialize` is sent and how the client waits, from the timeout and the explicit options. */
function connectionOptions(options: AppWorldOptions) {
  const initializeOptions: InitializeOptions = {
    ...(options.timeoutSeconds === undefined ? {} : { timeout_seconds: options.timeoutSeconds }),
    ...options.initializeOptions,
  };
  const clientOptions: Omit<AppWorldClientOptions, "baseUrl"> = {
    ...(options.timeoutSeconds === undefined
      ? {}
      : { executeTimeoutMs: Math.max(120_000, (options.timeoutSeconds + 30) * 1000) }),
    ...options.client,
  };
  return { initializeOptions, clientOptions };
}

/** Where real runs write AppWorld's evaluation files (none offline, or without an outputs directory). */
function evaluationRecorderOf(options: AppWorldOptions, offline: boolean): EvaluationRecorder | undefined {
  const outputsDirectory =
    options.outputsDirectory ??
    (options.appworldRoot === undefined ? undefined : join(options.appworldRoot, "experiments", "outputs"));
  return offline || outputsDirectory === undefined ? undefined : new EvaluationRecorder(outputsDirectory);
}

/**
 * Creates the AppWorld benchmark. Without `serverUrls` it runs the offline world of this package
 * (servers on 127.0.0.1 speaking AppWorld's environment protocol, tasks of our own); with them it
 * drives real AppWorld environment servers through the same client.
 */
export function createAppWorld(options: AppWorldOptions = {}): AppWorld {
  const offline = options.serverUrls === undefined || options.serverUrls.length === 0;
  const readFile = options.readFile ?? ((path: string) => readFileFromDisk(path, "utf8"));
  const experimentNames = new ExperimentNames(options.experimentName ?? "harness-s", options.runId);
  const recorder = evaluationRecorderOf(options, offline);
  const { initializeOptions, clientOptions } = connectionOptions(options);
  const source: TaskSource = { offline, options, readFile, clientOptions };
  const world = new OfflineWorld({
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
    ...(options.timeoutSeconds === undefined ? {} : { timeoutSeconds: options.timeoutSeconds }),
    ...(options.maxOutputChars === undefined ? {} : { maxOutputChars: options.maxOutputChars }),
  });
  let pool: Promise<ServerPool> | undefined;
  const serverPool = (): Promise<ServerPool> => {
    pool ??= offline
      ? world.start(options.parallelism ?? 4).then((urls) => new ServerPool(urls))
      : Promise.resolve(new ServerPool(options.serverUrls ?? []));
    return pool;
  };
  const benchmark: AppWorld = {
    specificationVersion: "v1",
    id: "appworld",
    offline,
    splits: offline ? offlineSplits : realSplits,
    trainSplit: "train",
    heldoutSplits: offline ? ["test"] : ["test_normal", "test_challenge"],
    presets: appworldPresets,
    defaultPreset: "react",
    failureConventions: appworldConventions,
    evolutionLibrary: appworldLibrary,
    ...(options.actionGrammar === undefined ? {} : { actionGrammar: options.actionGrammar }),
    async loadTasks(loadOptions: LoadTasksOptions): Promise<LoadTasksResult> {
      if (loadOptions.path !== undefined)
        return await loadTaskIdFile(
          source,
          loadOptions.path,
          basename(loadOptions.path, extname(loadOptions.path)),
        );
      return await loadSplit(source, benchmark.splits, loadOptions.split ?? "train");
    },
    async createEnvironment(
      task: Task,
      _environmentOptions: CreateEnvironmentOptions,
    ): Promise<EnvironmentV1> {
      return new AppWorldEnvironment(task, {
        pool: await serverPool(),
        experimentName: (taskId) => experimentNames.next(taskId),
        client: clientOptions,
        ...(offline ? {} : { initializeOptions }),
        onEvaluated: (experiment, taskId, evaluation) =>
          recorder?.record(experiment, task.split, taskId, evaluation),
      });
    },
    summarize: summarizeAppWorld,
    observableCategory: observableAppOf,
    async close() {
      await world.close();
      await recorder?.settled();
    },
  };
  benchmark.goldReplay = offline
    ? (replayOptions) => offlineGoldReplay(benchmark, replayOptions, options.parallelism ?? 4)
    : (replayOptions) => realGoldReplay(benchmark, replayOptions, options);
  return benchmark;
}
