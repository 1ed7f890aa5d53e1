import type { BenchmarkPluginContextV1, BenchmarkPluginV1, PluginOptionValues } from "@hs/spec";
import { InvalidInputError } from "@hs/spec";
import { createSweGym } from "./create-swegym.js";

function stringOption(values: PluginOptionValues, name: string): string | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new InvalidInputError(`--${name} takes a value`, { field: name });
  return value;
}

function numberOption(values: PluginOptionValues, name: string): number | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  const number = Number(text);
  if (!Number.isFinite(number) || number <= 0) {
    throw new InvalidInputError(`--${name} expects a positive number of seconds, got "${text}"`, {
      field: name,
    });
  }
  return number * 1000;
}

/** `hs --bench swegym`: SWE-Gym with SWE-bench grading; bundled offline repositories by default. */
export const benchmarkPlugin: BenchmarkPluginV1 = {
  specificationVersion: "v1",
  id: "swegym",
  description:
    "SWE-Gym / SWE-bench instances graded as SWE-bench v4.1.0; offline bundled repositories by default",
  options: {
    repos: {
      type: "string",
      description: "mirror directory of <owner>__<name> git repositories (default: bundled)",
    },
    specs: {
      type: "string",
      description: 'JSON spec map {"owner/name": {"version": {"test_cmd": ...}}} merged over the built-in',
    },
    runtime: {
      type: "string",
      description: "local (default, bubblewrap where it works) or docker (SWE-Gym images)",
    },
    python: {
      type: "string",
      description:
        "Python the agent's python, python3 and pytest run, local runtime (default: /usr/bin/python3 for the bundled repositories)",
    },
    "sandbox-bind": {
      type: "string",
      description:
        "host paths (colon-separated) bound read-only into the local sandbox, e.g. a Python outside /usr (default: none; only /usr, /bin, /lib* and a part of /etc are there)",
    },
    "workspace-memory": {
      type: "string",
      description: "MiB of memory of one workspace's processes together, local runtime (default 2048)",
    },
    templates: {
      type: "string",
      description:
        "directory kept across runs for the local runtime's per-commit built checkouts (default: temporary)",
    },
    progress: {
      type: "boolean",
      description:
        "per-episode progress lines on stderr (start, grade and why not resolved; a line at least every 10 s while episodes run); on by default when stderr is a terminal",
    },
    "command-timeout": { type: "string", description: "seconds per agent command (default 60)" },
    "grade-timeout": { type: "string", description: "seconds per grading run (default 1800)" },
  },
  grammarModule: "@hs/grammar-swegym",
  // an episode runs real bash and pytest and is graded by a test run (1.3-1.7 s on 2 cores, DBBench's
  // about 0.01 s): the main job is sized for that, with evolution over every train task
  mainJobDefaults: {
    budget: 128,
    evolveTasks: 0,
    rollouts: 1,
    generations: 2,
    candidates: 2,
    maxFailures: 24,
    promptsPerStep: 2,
  },
  async createBenchmark(values: PluginOptionValues, context: BenchmarkPluginContextV1 = {}) {
    const runtime = stringOption(values, "runtime") ?? "local";
    if (runtime !== "local" && runtime !== "docker") {
      throw new InvalidInputError(`--runtime expects local or docker, got "${runtime}"`, {
        field: "runtime",
      });
    }
    const repos = stringOption(values, "repos");
    const specs = stringOption(values, "specs");
    const python = stringOption(values, "python");
    const binds = stringOption(values, "sandbox-bind");
    const memory = stringOption(values, "workspace-memory");
    const memoryMiB = memory === undefined ? undefined : Number(memory);
    if (memoryMiB !== undefined && !(Number.isInteger(memoryMiB) && memoryMiB > 0))
      throw new InvalidInputError(
        `--workspace-memory expects a positive whole number of MiB, got "${memory}"`,
        {
          field: "workspace-memory",
        },
      );
    const templateDirectory = stringOption(values, "templates");
    const commandTimeLimitMs = numberOption(values, "command-timeout");
    const gradeTimeLimitMs = numberOption(values, "grade-timeout");
    const progress = values.progress === true || (values.progress === undefined && process.stderr.isTTY);
    return createSweGym({
      ...(progress ? { onProgress: (line: string) => process.stderr.write(`${line}\n`) } : {}),
      runtime,
      ...(context.actionGrammar === undefined ? {} : { actionGrammar: context.actionGrammar }),
      ...(repos === undefined ? {} : { repos }),
      ...(specs === undefined ? {} : { specs }),
      ...(python === undefined ? {} : { python }),
      ...(binds === undefined ? {} : { sandboxBinds: binds.split(":").filter((path) => path !== "") }),
      ...(memoryMiB === undefined ? {} : { workspaceMemoryBytes: memoryMiB * 1024 * 1024 }),
      ...(templateDirectory === undefined ? {} : { templateDirectory }),
      ...(commandTimeLimitMs === undefined ? {} : { commandTimeLimitMs }),
      ...(gradeTimeLimitMs === undefined ? {} : { gradeTimeLimitMs }),
    });
  },
};

export default benchmarkPlugin;
