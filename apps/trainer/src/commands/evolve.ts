import { resolve } from "node:path";
import {
  createLlmClassifier,
  createLlmProposer,
  createRuleClassifier,
  evolveDefaults,
  evolvePool,
  type FailureClassifierV1,
  formatRescueProperties,
  isFixDirection,
  type ProposerV1,
  writePool,
} from "@hs/evolution";
import {
  appendTrajectories,
  type FixDirection,
  fixDirections,
  genericConventions,
  genericLibrary,
} from "@hs/harness";
import { numberArgument } from "../arguments.js";
import { replaceAtomically, writeFileAtomic } from "../atomic-file.js";
import { loadTaskSet, openBenchmark, resolveHarness, trainSplitOf } from "../benchmark-selection.js";
import { type Command, integerOption, stringOption, UsageError } from "../command.js";
import { createOutboundCalls } from "../outbound-calls.js";
import { checkOutputFile } from "../run-directory.js";
import { policyDirectoryOf, resolvePolicy } from "./eval.js";

/** Parses `--directions a,b` (default: all). */
export function parseDirections(text: string | undefined): FixDirection[] {
  if (text === undefined) return [...fixDirections];
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  for (const name of names) {
    if (!isFixDirection(name))
      throw new UsageError(`--directions: "${name}" is not one of ${fixDirections.join(", ")}`);
  }
  return names as FixDirection[];
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
  usage: `Usage: hs evolve --bench NAME [--split train] --out pool.json [options]

Runs the base harness on the training tasks, labels every failure (rules, plus an LLM classifier with
--llm-model), grows candidates per fix direction (operators restricted to the direction's section,
plus an LLM proposer with --llm-model), validates each on that direction's base failures, re-run with
fresh seeds beside the base harness re-rolled on the same seeds (the control), and on a sample of base
successes, and keeps the best per direction when it beats the control (a one-sided sign test on the
paired episodes, p < --control-p, at least --min-rescues rescues) and again on other fresh seeds. Writes the pool (OUT), the evolution report with
the rescue matrix, locality and complementarity (OUT with .evolution.json), and the labelled base
episodes (OUT with .base.jsonl). Prints the three properties as Markdown tables.

Options:
  --bench NAME           benchmark: dbbench, swegym, appworld, a plugin package or a path to one
  --split NAME           bundled split (default: the benchmark's training split); "train" means that too
  --data FILE            tasks from a file of the benchmark's format instead
  --tasks N              use only the first N tasks
  --harness NAME         base harness: base (default), a preset, or a harness JSON file
  --policy SPEC          embedded (untrained weights of --seed, default) or embedded:DIR
  --seed S               seed of weights, episodes and operators (default 0)
  --rollouts N           base rollouts per task (default ${evolveDefaults.rolloutsPerTask})
  --generations G        generations per direction (default ${evolveDefaults.generations})
  --candidates C         operator children per parent and generation (default ${evolveDefaults.candidatesPerGeneration})
  --success-sample N     base successes each candidate is checked on (default ${evolveDefaults.successSample})
  --max-failures N       base failures per direction a candidate is validated on (default ${evolveDefaults.maxFailuresPerDirection})
  --min-rescues N        least base failures a sibling must rescue (default ${evolveDefaults.minRescues})
  --control-p P          a sibling must beat the re-roll control with one-sided p below P (default ${evolveDefaults.controlPValue})
  --no-confirm           skip re-checking the chosen candidate against the control on other fresh seeds
  --directions LIST      comma-separated directions (default: all seven)
  --concurrency N        episodes in flight at once (default 1; results do not depend on it)
  --llm-base-url URL     OpenAI-compatible endpoint for the LLM proposer and classifier
  --llm-model NAME       model name at that endpoint (enables the LLM parts)
  --llm-timeout MS       time limit of one LLM call attempt (default 120000)
  --llm-retries N        retries of a failed LLM call (default 4); each failure is reported on stderr
  --out FILE             pool JSON to write (required)`,
  options: {
    bench: { type: "string" },
    split: { type: "string" },
    data: { type: "string" },
    tasks: { type: "string" },
    harness: { type: "string" },
    policy: { type: "string" },
    seed: { type: "string" },
    rollouts: { type: "string" },
    generations: { type: "string" },
    candidates: { type: "string" },
    "success-sample": { type: "string" },
    "max-failures": { type: "string" },
    "min-rescues": { type: "string" },
    "control-p": { type: "string" },
    "no-confirm": { type: "boolean" },
    directions: { type: "string" },
    concurrency: { type: "string" },
    "llm-base-url": { type: "string" },
    "llm-model": { type: "string" },
    "llm-timeout": { type: "string" },
    "llm-retries": { type: "string" },
    out: { type: "string" },
  },
  async run(args, io) {
    const out = stringOption(args, "out");
    if (out === undefined) throw new UsageError("--out pool.json is required");
    // every output is checked (and its directory created) before the long run, so none can lose it
    const inputs = [
      { option: "--data", path: stringOption(args, "data") },
      { option: "--harness", path: stringOption(args, "harness") },
      { option: "--policy", path: policyDirectoryOf(stringOption(args, "policy")) },
    ];
    await checkOutputFile("--out", out, inputs, { createParent: true });
    await checkOutputFile("--out (report)", `${out.replace(/\.json$/, "")}.evolution.json`, inputs);
    await checkOutputFile("--out (base episodes)", `${out.replace(/\.json$/, "")}.base.jsonl`, inputs);
    const calls = createOutboundCalls(io.stderr);
    const directions = parseDirections(stringOption(args, "directions"));
    const seed = integerOption(args, "seed", 0);
    const benchmark = await openBenchmark(args);
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
    const base = await resolveHarness(benchmark, stringOption(args, "harness") ?? "base");
    const policy = await resolvePolicy(benchmark, stringOption(args, "policy") ?? "embedded", seed);
    const conventions = benchmark.failureConventions ?? genericConventions;
    const classifiers: FailureClassifierV1[] = [createRuleClassifier(conventions)];
    let proposer: ProposerV1 | undefined;
    const llmModel = stringOption(args, "llm-model");
    if (llmModel !== undefined) {
      const limits = {
        timeoutMs: integerOption(args, "llm-timeout", 120_000),
        retries: integerOption(args, "llm-retries", 4),
      };
      const endpoint = { model: llmModel, baseURL: stringOption(args, "llm-base-url") };
      classifiers.push(
        createLlmClassifier({
          model: calls.chatModel("llm classifier", endpoint, limits, false),
          timeoutMs: limits.timeoutMs * (limits.retries + 1) + 30_000,
        }),
      );
      proposer = createLlmProposer({
        model: calls.chatModel("llm proposer", endpoint, limits),
        timeoutMs: limits.timeoutMs * (limits.retries + 1) + 30_000,
        onLog: (entry) =>
          io.stderr(
            `proposal ${entry.direction}: ${entry.accepted ? "accepted" : "rejected"}: ${entry.detail}\n`,
          ),
      });
    }
    const started = Date.now();
    const { pool, report, baseTrajectories } = await evolvePool({
      benchmark,
      policy,
      tasks,
      base,
      seed,
      directions,
      concurrency: integerOption(args, "concurrency", 1),
      rolloutsPerTask: integerOption(args, "rollouts", evolveDefaults.rolloutsPerTask),
      generations: integerOption(args, "generations", evolveDefaults.generations),
      candidatesPerGeneration: integerOption(args, "candidates", evolveDefaults.candidatesPerGeneration),
      successSample: integerOption(args, "success-sample", evolveDefaults.successSample),
      maxFailuresPerDirection: integerOption(args, "max-failures", evolveDefaults.maxFailuresPerDirection),
      minRescues: integerOption(args, "min-rescues", evolveDefaults.minRescues),
      controlPValue: numberArgument(args, "control-p", evolveDefaults.controlPValue),
      confirm: args.values["no-confirm"] !== true,
      classifiers,
      library: benchmark.evolutionLibrary ?? genericLibrary,
      ...(proposer === undefined ? {} : { proposer }),
      onProgress: (message) => io.stderr(`evolve: ${message}\n`),
      onClassifierError: (classifierId, error, trajectoryId) =>
        calls.report(`classifier ${classifierId}`, error, `trajectory ${trajectoryId}`),
    });
    policy.dispose();
    await replaceAtomically(out, (draft) => writePool(draft, pool));
    const reportFile = `${out.replace(/\.json$/, "")}.evolution.json`;
    await writeFileAtomic(
      reportFile,
      `${JSON.stringify({ ...report, ...sourceOf(split, stringOption(args, "data"), tasks), tasks: tasks.length, wallMs: Date.now() - started }, null, 2)}\n`,
    );
    const baseFile = `${out.replace(/\.json$/, "")}.base.jsonl`;
    await replaceAtomically(baseFile, (draft) => appendTrajectories(draft, baseTrajectories));
    io.stdout(
      `pool: ${out} (${pool.siblings.length} siblings: ${pool.siblings.map((sibling) => sibling.id).join(", ") || "none"})\n`,
    );
    io.stdout(
      `base: ${report.baseRun.successes}/${report.baseRun.episodes} solved on ${tasks.length} tasks of ${sourceOf(split, stringOption(args, "data"), tasks).split}\n`,
    );
    for (const entry of report.directions) io.stdout(`  ${entry.direction}: ${entry.outcome}\n`);
    if (report.properties !== null) io.stdout(`\n${formatRescueProperties(report.properties)}\n`);
    io.stdout(`report: ${reportFile}\nbase episodes: ${baseFile}\n`);
    const failures = calls.summary("evolve");
    if (failures !== null) io.stderr(`${failures}\n`);
    return 0;
  },
};
