import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type ActionGrammarV1,
  type BenchmarkV1,
  EnvironmentError,
  type EnvironmentV1,
  type GoldReplayOptionsV1,
  type GoldReplayReportV1,
  InvalidInputError,
  type LoadTasksOptions,
  type LoadTasksResult,
  type Task,
} from "@hs/spec";
import {
  bundledOwner,
  bundledPython,
  bundledTestCommand,
  ensureBundledMirror,
} from "./data/bundled-mirror.js";
import { parseInstances } from "./data/load-instances.js";
import type { SweInstance } from "./data/swe-instance.js";
import { SweGymEnvironment } from "./environment/environment.js";
import { GradeCache } from "./environment/grade-cache.js";
import { ProgressReporter } from "./environment/progress.js";
import { sweGymTools } from "./environment/tools.js";
import { sweGymLibrary } from "./evolution-library.js";
import { sweGymConventions } from "./failure-conventions.js";
import { type LogParser, logParsers, sweGymRepoParsers } from "./grading/log-parsers.js";
import { sweGymPresets } from "./presets.js";
import { runGoldReplay } from "./replay/gold-replay.js";
import { createDockerRuntime, dockerCondaEnvironment } from "./runtime/docker-runtime.js";
import { createLocalRuntime } from "./runtime/local-runtime.js";
import type { IsolationLevel } from "./runtime/sandbox.js";
import type { Runtime } from "./runtime/workspace.js";
import { interpreterVersion, pythonMismatch } from "./specs/python-version.js";
import {
  lookupSpec,
  mergeSpecMaps,
  parseSpecMap,
  type RepoSpec,
  type SpecMap,
  sweGymSpecs,
} from "./specs/spec-map.js";
import { summarizeOutcomes } from "./summarize.js";

/** Options of `createSweGym`. */
export interface SweGymOptions {
  /** Mirror directory holding `<owner>__<name>` git repositories; default: the bundled repositories, built on first use. */
  repos?: string;
  /** A `--specs FILE` path or a spec map, merged over the built-in SWE-Gym and bundled specs. */
  specs?: string | SpecMap;
  /** `local` (default) or `docker` (SWE-Gym's images). */
  runtime?: "local" | "docker" | Runtime;
  /** Local isolation (default `auto`: bubblewrap where it works). */
  isolation?: "auto" | IsolationLevel;
  /** Milliseconds per agent command (default 60 s, mini-swe-agent's). */
  commandTimeLimitMs?: number;
  /** Milliseconds a grading run may take (default 1800 s, SWE-bench's `--timeout`). */
  gradeTimeLimitMs?: number;
  /** Bytes of output kept per command (default 8 MiB). */
  maxOutputBytes?: number;
  /** Folder with the bundled splits and repositories (default the package's `data/`). */
  dataDirectory?: string;
  /** Where the bundled mirror is built (default the OS temp directory). */
  cacheDirectory?: string;
  /**
   * The Python the agent's `python`, `python3` and `pytest` run on the local runtime (default: the bundled
   * repositories' own, Debian's `/usr/bin/python3`, when `repos` is not given; else what PATH finds).
   */
  python?: string;
  /** Host paths bound read-only into the local sandbox (a Python outside /usr, prebuilt extensions). */
  sandboxBinds?: readonly string[];
  /** Bytes of memory of one local workspace's processes together (default 2 GiB). */
  workspaceMemoryBytes?: number;
  /** Where local workspaces are made (default the OS temp directory). */
  scratchDirectory?: string;
  /**
   * Where the local runtime keeps its per-commit templates (built checkouts); given, they outlive the
   * process, so a spec's `install` runs once per commit across runs (default: a temporary directory).
   */
  templateDirectory?: string;
  /**
   * Local runtime under bubblewrap: one sandbox per workspace hosting a command runner (default true);
   * false gives every command its own sandbox.
   */
  commandRunner?: boolean;
  /** Keep verdicts by (instance, sha256 of the patch) so a repeated patch is not graded again (default true). */
  cacheGrades?: boolean;
  /**
   * Where warnings go (a spec's `python` version that is not the interpreter's; `repos` without
   * `python`). Default: stderr.
   */
  warn?: (message: string) => void;
  /**
   * Per-episode progress lines (`swegym: <instance>#<n> started (...)`, `... resolved in 8.1 s`, `...
   * not resolved: <why>`), and while episodes run a line at least every 10 s naming what each one
   * does. Default: none. `hs --bench swegym --progress` writes them to stderr.
   */
  onProgress?: (line: string) => void;
  /** The embedded policy's action grammar (`@hs/grammar-swegym`, which `hs` loads from `grammarModule`), exposed as `actionGrammar`. */
  actionGrammar?: ActionGrammarV1;
}

/** A SWE-Gym benchmark; `instanceOf` is for gold replay and tests inside this package. */
export interface SweGym extends BenchmarkV1 {
  /** The runtime episodes run on. */
  readonly runtime: Runtime;
  /** The verdict cache of this benchmark's episodes (null with `cacheGrades: false`). */
  readonly gradeCache: GradeCache | null;
}

/** Bundled splits: instances of six repositories (train / heldout) and two repositories never trained on. */
export const bundledSplits = ["train", "heldout", "heldout-repos"] as const;

const graderInstances = new WeakMap<SweGym, Map<string, SweInstance>>();

/** The grader's instance behind a task (package-internal: gold replay and tests). */
export function graderInstance(benchmark: SweGym, taskId: string): SweInstance | undefined {
  return graderInstances.get(benchmark)?.get(taskId);
}

function defaultDataDirectory(): string {
  return join(dirname(fileURLToPath(import.meta.url)), "..", "data");
}

const bundledSpecs = (): SpecMap => ({
  [`${bundledOwner}/*`]: { "*": { test_cmd: bundledTestCommand } },
});

function resolveSpec(specs: SpecMap, instance: SweInstance): RepoSpec | undefined {
  const owner = instance.repo.split("/")[0] ?? "";
  return (
    lookupSpec(specs, instance.repo, instance.version) ?? lookupSpec(specs, `${owner}/*`, instance.version)
  );
}

function resolveParser(repo: string, spec: RepoSpec): LogParser {
  const name = spec.log_parser ?? sweGymRepoParsers[repo.toLowerCase()] ?? "pytest";
  return logParsers[name] ?? logParsers.pytest!;
}

/** An environment whose reset fails with a stated reason (a missing spec), so the episode ends as an error, not a crash. */
function failingEnvironment(reason: string): EnvironmentV1 {
  return {
    specificationVersion: "v1",
    tools: sweGymTools,
    reset: async () => {
      throw new EnvironmentError(reason);
    },
    step: async () => ({ content: reason, isError: true, done: true }),
    grade: async () => ({ reward: 0, success: false, details: { error: reason } }),
    close: async () => {},
  };
}

async function readSpecs(option: SweGymOptions["specs"]): Promise<SpecMap> {
  if (option === undefined) return mergeSpecMaps(sweGymSpecs, bundledSpecs());
  if (typeof option !== "string") return mergeSpecMaps(sweGymSpecs, bundledSpecs(), option);
  const text = await readFile(option, "utf8").catch((error: Error) => {
    throw new InvalidInputError(`cannot read the spec file: ${error.message}`, { file: option });
  });
  return mergeSpecMaps(sweGymSpecs, bundledSpecs(), parseSpecMap(text, option));
}

/** The mirror: `--repos`, or the bundled repositories rebuilt from the package's plain files. */
async function resolveMirror(options: SweGymOptions, dataDirectory: string): Promise<string> {
  if (options.repos !== undefined) return options.repos;
  const loaded: SweInstance[] = [];
  for (const split of bundledSplits) {
    const file = join(dataDirectory, `${split}.jsonl`);
    if (!existsSync(file)) continue;
    const parsed = parseInstances(await readFile(file, "utf8"), file, split);
    loaded.push(...parsed.instances.map((entry) => entry.instance));
  }
  return ensureBundledMirror(join(dataDirectory, "repos"), loaded, options.cacheDirectory);
}

async function createRuntime(options: SweGymOptions, dataDirectory: string): Promise<Runtime> {
  const runtimeOption = options.runtime ?? "local";
  if (typeof runtimeOption !== "string") return runtimeOption;
  if (runtimeOption === "docker") return createDockerRuntime();
  if (runtimeOption !== "local") {
    throw new InvalidInputError(`expected "local" or "docker", got "${runtimeOption}"`, { field: "runtime" });
  }
  return createLocalRuntime({
    mirrorDirectory: await resolveMirror(options, dataDirectory),
    ...(options.isolation === undefined ? {} : { isolation: options.isolation }),
    hiddenPaths: [dataDirectory],
    ...pythonOption(options),
    ...(options.scratchDirectory === undefined ? {} : { scratchDirectory: options.scratchDirectory }),
    ...(options.sandboxBinds === undefined ? {} : { sandboxBinds: options.sandboxBinds }),
    ...(options.workspaceMemoryBytes === undefined ? {} : { memoryBytes: options.workspaceMemoryBytes }),
    ...(options.templateDirectory === undefined ? {} : { templateDirectory: options.templateDirectory }),
    ...(options.commandRunner === undefined ? {} : { commandRunner: options.commandRunner }),
  });
}

function pythonOption(options: SweGymOptions): { python?: string } {
  const python = options.python ?? (options.repos === undefined ? bundledPython : undefined);
  return python === undefined ? {} : { python };
}

/**
 * Checks each spec's `python` against the interpreter commands run (`--python`, else what PATH finds
 * as python3) once per repository version, and says once when `repos` is given without `python`.
 */
function pythonChecker(options: SweGymOptions, runtimeId: string) {
  const warn = options.warn ?? ((message: string) => process.stderr.write(`${message}\n`));
  if (runtimeId !== "local") return () => {};
  const given = pythonOption(options).python;
  let interpreter: { path: string; version: string | null } | undefined;
  const resolveInterpreter = () => {
    if (interpreter !== undefined) return interpreter;
    const path = given ?? "python3";
    interpreter = { path: given ?? "python3 (from PATH)", version: interpreterVersion(path) };
    if (given === undefined) {
      warn(
        `swegym: --repos without --python: the agent's and the grader's python, python3 and pytest are whatever PATH finds (python3 is ${interpreter.version ?? "missing"}); pass --python PATH for the interpreter the tests need`,
      );
    }
    return interpreter;
  };
  if (options.repos !== undefined && given === undefined) resolveInterpreter();
  const checked = new Set<string>();
  return (instance: SweInstance, spec: RepoSpec) => {
    const key = `${instance.repo}@${instance.version}`;
    if (spec.python === undefined || checked.has(key)) return;
    checked.add(key);
    const message = pythonMismatch(instance.repo, instance.version, spec.python, resolveInterpreter());
    if (message !== null) warn(message);
  };
}

/** Where a load reads from: a file (its name is the split) or a bundled split. */
function sourceOf(dataDirectory: string, options: LoadTasksOptions): { file: string; split: string } {
  if (options.path !== undefined)
    return { file: options.path, split: basename(options.path, extname(options.path)) };
  const split = options.split ?? "train";
  if (!(bundledSplits as readonly string[]).includes(split)) {
    throw new InvalidInputError(`unknown split "${split}"; expected one of ${bundledSplits.join(", ")}`, {
      field: "split",
    });
  }
  return { file: join(dataDirectory, `${split}.jsonl`), split };
}

/** Loads tasks and keeps their instances in the grader's map. */
async function loadInto(
  instances: Map<string, SweInstance>,
  dataDirectory: string,
  options: LoadTasksOptions,
): Promise<LoadTasksResult> {
  const { file, split } = sourceOf(dataDirectory, options);
  const text = await readFile(file, "utf8").catch((error: Error) => {
    throw new InvalidInputError(`cannot read SWE-Gym data: ${error.message}`, { file });
  });
  const parsed = parseInstances(text, file, split);
  for (const { task, instance } of parsed.instances) instances.set(task.id, instance);
  return { tasks: parsed.instances.map(({ task }) => task), problems: parsed.problems };
}

/**
 * Creates SWE-Gym with SWE-bench v4.1.0 grading. Tasks hold the problem statement only; patches and
 * test lists stay in a private map of this instance. Bundled splits run offline on our own
 * repositories; `loadTasks({ path })` reads any SWE-bench / SWE-Gym JSONL, whose repositories come
 * from `repos` (local runtime) or from SWE-Gym's images (docker runtime).
 */
export async function createSweGym(options: SweGymOptions = {}): Promise<SweGym> {
  const dataDirectory = options.dataDirectory ?? defaultDataDirectory();
  const specs = await readSpecs(options.specs);
  const instances = new Map<string, SweInstance>();
  const runtime = await createRuntime(options, dataDirectory);
  const condaEnvironment = runtime.id === "docker" ? dockerCondaEnvironment : null;
  const gradeCache = options.cacheGrades === false ? null : new GradeCache();
  const checkPython = pythonChecker(options, runtime.id);
  const progress = options.onProgress === undefined ? undefined : new ProgressReporter(options.onProgress);
  const settingsFor = (instance: SweInstance) => {
    const spec = resolveSpec(specs, instance);
    if (spec === undefined) return undefined;
    checkPython(instance, spec);
    return {
      runtime,
      spec,
      parser: resolveParser(instance.repo, spec),
      commandTimeLimitMs: options.commandTimeLimitMs ?? 60_000,
      maxOutputBytes: options.maxOutputBytes ?? 8 * 1024 * 1024,
      gradeTimeLimitMs: options.gradeTimeLimitMs ?? 1_800_000,
      condaEnvironment,
      ...(gradeCache === null ? {} : { gradeCache }),
      ...(progress === undefined ? {} : { progress }),
    };
  };

  const benchmark: SweGym = {
    specificationVersion: "v1",
    id: "swegym",
    splits: bundledSplits,
    trainSplit: "train",
    heldoutSplits: ["heldout", "heldout-repos"],
    runtime,
    gradeCache,
    presets: sweGymPresets,
    defaultPreset: "mini-swe-agent",
    failureConventions: sweGymConventions,
    evolutionLibrary: sweGymLibrary,
    observableCategory: (task: Task) => String(task.metadata.repo ?? task.category),
    ...(options.actionGrammar === undefined ? {} : { actionGrammar: options.actionGrammar }),
    async loadTasks(loadOptions: LoadTasksOptions): Promise<LoadTasksResult> {
      return loadInto(instances, dataDirectory, loadOptions);
    },
    async createEnvironment(task: Task): Promise<EnvironmentV1> {
      const instance = instances.get(task.id);
      if (instance === undefined) {
        throw new EnvironmentError(
          `unknown task "${task.id}": load it with loadTasks() on this benchmark first`,
        );
      }
      const settings = settingsFor(instance);
      if (settings === undefined) {
        return failingEnvironment(
          `no spec for ${instance.repo} version ${instance.version}: add it with --specs FILE ({"${instance.repo}": {"${instance.version}": {"test_cmd": "..."}}})`,
        );
      }
      return new SweGymEnvironment(instance, settings);
    },
    summarize: summarizeOutcomes,
    async goldReplay(replayOptions: GoldReplayOptionsV1): Promise<GoldReplayReportV1> {
      const { tasks, problems } = await benchmark.loadTasks(replayOptions.tasks);
      const report = await runGoldReplay(tasks, {
        instanceOf: (taskId) => instances.get(taskId),
        settingsFor,
        runtimeId: runtime.id,
        ...(replayOptions.signal === undefined ? {} : { signal: replayOptions.signal }),
        ...(replayOptions.onProgress === undefined ? {} : { onProgress: replayOptions.onProgress }),
      });
      // the records that did not load (a bad line, a repeated instance) are named, not dropped unsaid
      return problems.length === 0
        ? report
        : { ...report, problems: problems.map((problem) => problem.message) };
    },
  };
  graderInstances.set(benchmark, instances);
  return benchmark;
}
