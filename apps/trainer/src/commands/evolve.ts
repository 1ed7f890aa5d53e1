import { resolve } from "node:path";
import {
  createLlmProposer,
  type EvolutionReport,
  evolveDefaults,
  evolvePool,
  type FirstGeneration,
  firstGenerations,
  formatRescueProperties,
  type ProposerV1,
  writePool,
} from "@hs/evolution";
import { createLlmClassifier, createRuleClassifier, type FailureClassifierV1 } from "@hs/failure-analysis";
import { appendTrajectories, genericConventions, genericLibrary } from "@hs/harness";
import { type BenchmarkV1, type FixDirection, fixDirections, type Pool } from "@hs/spec";
import { numberArgument } from "../arguments.js";
import { replaceAtomically, writeFileAtomic } from "../atomic-file.js";
import { loadTaskSet, openBenchmark, resolveHarness, trainSplitOf } from "../benchmark-selection.js";
import {
  type Command,
  type CommandArguments,
  type CommandIo,
  choiceOf,
  integerOption,
  stringOption,
  UsageError,
} from "../command.js";
import { createOutboundCalls, type OutboundCalls } from "../outbound-calls.js";
import { benchmarkSourceOf } from "../pool-benchmark.js";
import { queueExecutorOf, redisOptions } from "../queue-option.js";
import { checkOutputFile } from "../run-directory.js";
import { sharedOption } from "../shared-options.js";
import { policyDirectoryOf, resolvePolicy } from "./eval.js";

/** Parses `--directions a,b` (default: all). */
export function parseDirections(text: string | undefined): FixDirection[] {
  if (text === undefined) return [...fixDirections];
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  return names.map((name) => choiceOf("directions", name, fixDirections));
}

/**
 * Where the evolved tasks came from, for the report: the bundled split, or with `--data` the file
 * and the split its tasks carry (the file's name), never the default split that was not read.
 */
export function sourceOf(split: string, data: string | undefined, tasks: readonly { split: string }[]) {
  if (data === undefined) return { split };
  return { split: tasks[0]?.split ?? data, data: resolve(data) };
}

/** `hs evolve`: directional harness evolution; writes the frozen pool and the evolution report. */
export const evolveCommand: Command = {
  name: "evolve",
  summary:
    "evolve a frozen sibling-harness pool along the fix directions (and measure locality, complementarity)",
  about: `Usage: hs evolve --bench NAME [--split train] --out pool.json [options]

Runs the base harness on the training tasks, labels every failure (rules, plus an LLM classifier with
--llm-model), grows candidates per fix direction (operators restricted to the direction's section,
plus an LLM proposer with --llm-model), validates each on that direction's base failures, re-run with
fresh seeds beside the base harness re-rolled on the same seeds (the control), and on a sample of base
successes, and keeps the best per direction when it beats the control (a one-sided sign test on the
paired episodes, p < --control-p, at least --min-rescues rescues) and again on other fresh seeds. Writes the pool (OUT), the evolution report with
the rescue matrix, locality and complementarity (OUT with .evolution.json), and the labelled base
episodes (OUT with .base.jsonl). Prints the three properties as Markdown tables.`,
  options: {
    bench: sharedOption("bench"),
    split: sharedOption("split", {
      description: `bundled split (default: the benchmark's training split); "train" means that too`,
    }),
    data: sharedOption("data"),
    tasks: sharedOption("tasks"),
    harness: sharedOption("harness", { description: "base harness: base, a preset, or a harness JSON file" }),
    policy: sharedOption("policy"),
    seed: sharedOption("seed", { description: "seed of weights, episodes and operators" }),
    rollouts: sharedOption("rollouts", {
      description: "base rollouts per task",
      default: evolveDefaults.rolloutsPerTask,
    }),
    generations: sharedOption("generations", {
      description: "generations per direction",
      default: evolveDefaults.generations,
    }),
    candidates: sharedOption("candidates", {
      description: "operator children per parent and generation",
      default: evolveDefaults.candidatesPerGeneration,
    }),
    "first-generation": {
      type: "string",
      value: "MODE",
      description: `each direction's first generation: every-entry (every single edit of the base, each library entry alone) or sampled (--candidates random draws); default ${evolveDefaults.firstGeneration}`,
    },
    "first-generation-cap": {
      type: "string",
      value: "N",
      description: "most every-entry candidates per direction (more single edits: a seeded sample of N)",
      default: evolveDefaults.firstGenerationCap,
      number: { kind: "integer", min: 1 },
    },
    "success-sample": {
      type: "string",
      value: "N",
      description: "base successes each candidate is checked on",
      default: evolveDefaults.successSample,
      number: { kind: "integer", min: 0 },
    },
    "max-failures": sharedOption("max-failures", {
      description: "base failures per direction a candidate is validated on",
      default: evolveDefaults.maxFailuresPerDirection,
    }),
    "min-rescues": {
      type: "string",
      value: "N",
      description: "least base failures a sibling must rescue",
      default: evolveDefaults.minRescues,
      number: { kind: "integer", min: 0 },
    },
    "control-p": {
      type: "string",
      value: "P",
      description: "a sibling must beat the re-roll control with one-sided p below P",
      default: evolveDefaults.controlPValue,
      number: { kind: "number", min: 0, max: 1, exclusiveMin: true },
    },
    "no-confirm": {
      type: "boolean",
      description: "skip re-checking the chosen candidate against the control on other fresh seeds",
    },
    directions: {
      type: "string",
      value: "LIST",
      description: "comma-separated directions (default: all seven)",
    },
    concurrency: sharedOption("concurrency"),
    ...redisOptions,
    "llm-base-url": {
      type: "string",
      value: "URL",
      description: "OpenAI-compatible endpoint for the LLM proposer and classifier",
      needs: "llm-model",
    },
    "llm-model": {
      type: "string",
      value: "NAME",
      description: "model name at that endpoint (enables the LLM parts)",
    },
    "llm-timeout": {
      type: "string",
      value: "MS",
      description: "time limit of one LLM call attempt",
      default: 120_000,
      number: { kind: "integer", min: 1 },
      needs: "llm-model",
    },
    "llm-retries": {
      type: "string",
      value: "N",
      description: "retries of a failed LLM call; each failure is reported on stderr",
      default: 4,
      number: { kind: "integer", min: 0, max: 20 },
      needs: "llm-model",
    },
    out: sharedOption("out", { description: "pool JSON to write (required)" }),
  },
  async run(args, io) {
    const out = stringOption(args, "out");
    if (out === undefined) throw new UsageError("--out pool.json is required");
    await checkEvolveOutputs(args, out);
    const calls = createOutboundCalls(io.stderr);
    const directions = parseDirections(stringOption(args, "directions"));
    const firstGeneration = parseFirstGeneration(stringOption(args, "first-generation"));
    const seed = integerOption(args, "seed");
    const benchmark = await openBenchmark(args);
    const { split, tasks } = await evolveTasksOf(args, benchmark, io);
    const base = await resolveHarness(benchmark, stringOption(args, "harness") ?? "base");
    const policy = await resolvePolicy(benchmark, stringOption(args, "policy") ?? "embedded", seed);
    const { classifiers, proposer } = failureModels(args, benchmark, calls, io);
    const executor = queueExecutorOf(args, io, {
      phase: "evolve",
      run: out,
      tasks: { data: stringOption(args, "data"), split },
    });
    const started = Date.now();
    const { pool, report, baseTrajectories } = await evolvePool({
      ...{ benchmark, policy, tasks, base, seed, directions },
      concurrency: integerOption(args, "concurrency"),
      ...(executor === undefined ? {} : { executor }),
      ...searchOptions(args),
      firstGeneration,
      classifiers,
      library: benchmark.evolutionLibrary ?? genericLibrary,
      ...(proposer === undefined ? {} : { proposer }),
      onProgress: (message) => io.stderr(`evolve: ${message}\n`),
      onClassifierError: (classifierId, error, trajectoryId) =>
        calls.report(`classifier ${classifierId}`, error, `trajectory ${trajectoryId}`),
    });
    await executor?.close();
    policy.dispose();
    await replaceAtomically(out, (draft) => writePool(draft, pool));
    const source = sourceOf(split, stringOption(args, "data"), tasks);
    const reportFile = outputFileOf(out, ".evolution.json");
    await writeFileAtomic(
      reportFile,
      `${JSON.stringify({ ...report, ...source, bench: benchmarkSourceOf(args), tasks: tasks.length, wallMs: Date.now() - started }, null, 2)}\n`,
    );
    const baseFile = outputFileOf(out, ".base.jsonl");
    await replaceAtomically(baseFile, (draft) => appendTrajectories(draft, baseTrajectories));
    printEvolution(io, {
      out,
      pool,
      report,
      taskCount: tasks.length,
      split: source.split,
      reportFile,
      baseFile,
    });
    const failures = calls.summary("evolve");
    if (failures !== null) io.stderr(`${failures}\n`);
    return 0;
  },
};

/** The pool file's sibling output: OUT without `.json`, with `suffix`. */
function outputFileOf(out: string, suffix: string): string {
  return `${out.replace(/\.json$/, "")}${suffix}`;
}

/** Every output is checked (and its directory created) before the long run, so none can lose it. */
async function checkEvolveOutputs(args: CommandArguments, out: string): Promise<void> {
  const inputs = [
    { option: "--data", path: stringOption(args, "data") },
    { option: "--harness", path: stringOption(args, "harness") },
    { option: "--policy", path: policyDirectoryOf(stringOption(args, "policy")) },
  ];
  await checkOutputFile("--out", out, inputs, { createParent: true });
  await checkOutputFile("--out (report)", outputFileOf(out, ".evolution.json"), inputs);
  await checkOutputFile("--out (base episodes)", outputFileOf(out, ".base.jsonl"), inputs);
}

/** The split read (`--split`; "train" means the training split) and its first `--tasks` tasks. */
async function evolveTasksOf(args: CommandArguments, benchmark: BenchmarkV1, io: CommandIo) {
  const requested = stringOption(args, "split");
  const split =
    requested === undefined || (requested === "train" && !benchmark.splits.includes("train"))
      ? trainSplitOf(benchmark)
      : requested;
  let tasks = await loadTaskSet(benchmark, stringOption(args, "data"), split, (message) =>
    io.stderr(`${message}\n`),
  );
  const limit = integerOption(args, "tasks", 0);
  if (limit > 0) tasks = tasks.slice(0, limit);
  return { split, tasks };
}

/** The rule classifier, and with `--llm-model` an LLM classifier and the LLM proposer. */
function failureModels(args: CommandArguments, benchmark: BenchmarkV1, calls: OutboundCalls, io: CommandIo) {
  const conventions = benchmark.failureConventions ?? genericConventions;
  const classifiers: FailureClassifierV1[] = [createRuleClassifier(conventions)];
  const llmModel = stringOption(args, "llm-model");
  if (llmModel === undefined) return { classifiers, proposer: undefined };
  const limits = {
    timeoutMs: integerOption(args, "llm-timeout"),
    retries: integerOption(args, "llm-retries"),
  };
  const endpoint = { model: llmModel, baseURL: stringOption(args, "llm-base-url") };
  classifiers.push(
    createLlmClassifier({
      model: calls.chatModel("llm classifier", endpoint, limits, false),
      timeoutMs: limits.timeoutMs * (limits.retries + 1) + 30_000,
    }),
  );
  const proposer: ProposerV1 = createLlmProposer({
    model: calls.chatModel("llm proposer", endpoint, limits),
    timeoutMs: limits.timeoutMs * (limits.retries + 1) + 30_000,
    onLog: (entry) =>
      io.stderr(
        `proposal ${entry.direction}: ${entry.accepted ? "accepted" : "rejected"}: ${entry.detail}\n`,
      ),
  });
  return { classifiers, proposer };
}

/** `--first-generation`: one of `firstGenerations` (default `evolveDefaults.firstGeneration`). */
export function parseFirstGeneration(text: string | undefined): FirstGeneration {
  return text === undefined
    ? evolveDefaults.firstGeneration
    : choiceOf("first-generation", text, firstGenerations);
}

/** The search's sizes and acceptance rule, from their options. */
function searchOptions(args: CommandArguments) {
  return {
    firstGenerationCap: integerOption(args, "first-generation-cap"),
    rolloutsPerTask: integerOption(args, "rollouts"),
    generations: integerOption(args, "generations"),
    candidatesPerGeneration: integerOption(args, "candidates"),
    successSample: integerOption(args, "success-sample"),
    maxFailuresPerDirection: integerOption(args, "max-failures"),
    minRescues: integerOption(args, "min-rescues"),
    controlPValue: numberArgument(args, "control-p"),
    confirm: args.values["no-confirm"] !== true,
  };
}

/** Prints the pool, the base run, each direction's outcome, the rescue properties and the files. */
function printEvolution(
  io: CommandIo,
  run: {
    out: string;
    pool: Pool;
    report: EvolutionReport;
    taskCount: number;
    split: string;
    reportFile: string;
    baseFile: string;
  },
): void {
  const { pool, report } = run;
  io.stdout(
    `pool: ${run.out} (${pool.siblings.length} siblings: ${pool.siblings.map((sibling) => sibling.id).join(", ") || "none"})\n`,
  );
  io.stdout(
    `base: ${report.baseRun.successes}/${report.baseRun.episodes} solved on ${run.taskCount} tasks of ${run.split}\n`,
  );
  for (const entry of report.directions) io.stdout(`  ${entry.direction}: ${entry.outcome}\n`);
  if (report.properties !== null) io.stdout(`\n${formatRescueProperties(report.properties)}\n`);
  io.stdout(`report: ${run.reportFile}\nbase episodes: ${run.baseFile}\n`);
}
