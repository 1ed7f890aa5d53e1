import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { readHarnessConfigFile } from "@hs/harness";
import { splitProblems, taskGoldProblems } from "@hs/harness/conformance";
import type {
  ActionGrammarV1,
  BenchmarkPluginContextV1,
  BenchmarkPluginV1,
  BenchmarkV1,
  HarnessConfig,
  Task,
} from "@hs/spec";
import { type BenchmarkSelection, type CommandArguments, UsageError } from "./command.js";
import { loadBenchmarkPlugin, loadGrammarPlugin, pluginDirectoryOf } from "./plugins.js";

const grammarProblems = new WeakMap<BenchmarkV1, string>();

/** The plugin's grammar module, resolved against the plugin's own file (a path relative to it, or a package it depends on). */
async function grammarContext(
  plugin: BenchmarkPluginV1,
): Promise<{ context: BenchmarkPluginContextV1; problem?: string }> {
  const module = plugin.grammarModule;
  if (module === undefined) return { context: {} };
  try {
    const grammar = await loadGrammarPlugin(module, pluginDirectoryOf(plugin));
    return { context: { actionGrammar: grammar.createGrammar() } };
  } catch (error) {
    return {
      context: {},
      problem: `its grammar ${module} could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/**
 * Creates the benchmark that `--bench` named (an alias such as `dbbench`, a package or a path), with the
 * values of the plugin's own options; `fallback` names one when `--bench` is absent (an alias or
 * package name, or the selection a pool records).
 */
export async function openBenchmark(
  args: CommandArguments,
  fallback?: string | BenchmarkSelection,
): Promise<BenchmarkV1> {
  const selection =
    args.benchmark ??
    (typeof fallback === "string"
      ? { specifier: fallback, plugin: await loadBenchmarkPlugin(fallback), values: {} }
      : fallback);
  if (selection === undefined)
    throw new UsageError("--bench is required (dbbench, swegym, appworld, a package or a path)");
  const { context, problem } = await grammarContext(selection.plugin);
  const benchmark = await selection.plugin.createBenchmark(selection.values, context);
  if (benchmark?.specificationVersion !== "v1")
    throw new UsageError(`--bench ${selection.specifier}: createBenchmark did not return a BenchmarkV1`);
  const splits = splitProblems(benchmark);
  if (splits.length > 0)
    throw new UsageError(`--bench ${selection.specifier}: benchmark ${benchmark.id}: ${splits.join("; ")}`);
  if (problem !== undefined) grammarProblems.set(benchmark, problem);
  return benchmark;
}

/** The benchmark's action grammar, which the embedded policy needs. */
export function grammarOf(benchmark: BenchmarkV1): ActionGrammarV1 {
  const grammar = benchmark.actionGrammar;
  if (grammar !== undefined) return grammar;
  const problem = grammarProblems.get(benchmark);
  throw new UsageError(
    `benchmark ${benchmark.id} has no action grammar for the embedded policy${problem === undefined ? "" : `: ${problem}`}`,
  );
}

/** The split training reads unless told otherwise. */
export function trainSplitOf(benchmark: BenchmarkV1): string {
  return benchmark.trainSplit ?? benchmark.splits[0] ?? "train";
}

/** The split evaluation reads unless told otherwise: the first held-out split. */
export function heldoutSplitOf(benchmark: BenchmarkV1): string {
  return benchmark.heldoutSplits?.[0] ?? benchmark.splits.at(-1) ?? "dev";
}

async function loadFrom(benchmark: BenchmarkV1, data: string | undefined, split: string) {
  const source = data === undefined ? `split ${split}` : data;
  try {
    return data === undefined
      ? await benchmark.loadTasks({ split })
      : await benchmark.loadTasks({ path: resolve(data) });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(`benchmark ${benchmark.id}: loadTasks of ${source} failed: ${message}`);
  }
}

/**
 * Loads tasks from `--data FILE` or from a bundled split. Bad records are reported through `warn`
 * (file, line, field) and skipped; the others load. No task at all is an error, and so is a task that
 * holds one of the benchmark's `goldOf` secrets (the conformance kit's rule).
 */
export async function loadTaskSet(
  benchmark: BenchmarkV1,
  data: string | undefined,
  split: string,
  warn: (message: string) => void = (message) => process.stderr.write(`${message}\n`),
): Promise<Task[]> {
  const { tasks, problems } = await loadFrom(benchmark, data, split);
  for (const problem of problems) warn(`skipped a record: ${problem.message}`);
  if (tasks.length === 0) throw new UsageError(`no tasks in ${data ?? `split ${split}`}`);
  const goldOf = benchmark.goldOf?.bind(benchmark);
  const leaks = goldOf === undefined ? [] : tasks.flatMap((task) => taskGoldProblems(task, goldOf(task)));
  if (leaks.length > 0)
    throw new UsageError(
      `benchmark ${benchmark.id}: ${leaks.slice(0, 3).join("; ")} (no policy may see gold)`,
    );
  return tasks;
}

/** `base` (the benchmark's default preset), another preset name, or a harness JSON file. */
export async function resolveHarness(benchmark: BenchmarkV1, name: string): Promise<HarnessConfig> {
  if (name === "base") return benchmark.presets[benchmark.defaultPreset] as HarnessConfig;
  const preset = benchmark.presets[name];
  if (preset !== undefined) return preset;
  if (existsSync(name)) return readHarnessConfigFile(name);
  throw new UsageError(
    `--harness ${name}: not "base", a preset (${Object.keys(benchmark.presets).join(", ")}) or a harness file`,
  );
}
