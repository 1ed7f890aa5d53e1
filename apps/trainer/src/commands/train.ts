import { resolve } from "node:path";
import { createEmbeddedPolicy } from "@hs/policy-embedded";
import {
  defaultTrainerConfig,
  EmbeddedGrpoLearner,
  samplingMethods,
  type TrainerConfig,
  trainGrpo,
} from "@hs/rescue-grpo";
import { type Command, integerOption, stringOption, UsageError } from "../command.js";
import { loadTaskSet, openBenchmark, resolveHarness } from "./eval.js";

function numberOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new UsageError(`--${name} expects a number, got "${value}"`);
  return parsed;
}

/** `hs train`: GRPO training of the embedded policy under the base harness. */
export const trainCommand: Command = {
  name: "train",
  summary: "train the embedded policy with GRPO (grpo, dapo) under the base harness",
  usage: `Usage: hs train --bench dbbench --method grpo|dapo --seed S --out DIR [options]

Trains the embedded policy on the training split (standard-a for dbbench) and writes DIR/config.json,
DIR/metrics.jsonl (one line per step), DIR/checkpoints/step-N/ and DIR/final/. Evaluate with
"hs eval --bench dbbench --policy embedded:DIR".

Options:
  --bench NAME           benchmark (dbbench)
  --method M             grpo (all-fail groups give no signal) or dapo (dynamic sampling)
  --seed S               run seed: initial weights, prompt order, rollouts (default 0)
  --out DIR              run directory (required)
  --data FILE            training tasks from a file of the benchmark's format
  --split NAME           bundled training split (default: the benchmark's first split)
  --harness NAME         base (default), a preset, or a harness JSON file
  --budget N             total rollouts (default 3072)
  --group-size G         rollouts per prompt (default 8)
  --prompts-per-step P   groups per update (default 8)
  --learning-rate X      Adam learning rate (default 0.01)
  --epochs E             gradient steps per batch (default 2)
  --kl X                 k3 KL coefficient to the initial policy (default 0)
  --hidden H             hidden units of the scoring network (default 32)
  --json                 print the run summary as JSON`,
  options: {
    bench: { type: "string" },
    method: { type: "string" },
    seed: { type: "string" },
    out: { type: "string" },
    data: { type: "string" },
    split: { type: "string" },
    harness: { type: "string" },
    budget: { type: "string" },
    "group-size": { type: "string" },
    "prompts-per-step": { type: "string" },
    "learning-rate": { type: "string" },
    epochs: { type: "string" },
    kl: { type: "string" },
    hidden: { type: "string" },
    json: { type: "boolean" },
  },
  async run(args, io) {
    const bench = stringOption(args, "bench");
    const method = stringOption(args, "method");
    const out = stringOption(args, "out");
    if (bench === undefined) throw new UsageError("--bench is required");
    if (out === undefined) throw new UsageError("--out DIR is required");
    if (method === undefined || !(samplingMethods as readonly string[]).includes(method)) {
      throw new UsageError(`--method must be one of ${samplingMethods.join(", ")}`);
    }
    const seed = integerOption(args, "seed", 0);
    const benchmark = await openBenchmark(bench);
    const grammar = benchmark.actionGrammar;
    if (grammar === undefined) throw new UsageError(`benchmark ${benchmark.id} has no action grammar`);
    const tasks = await loadTaskSet(
      benchmark,
      stringOption(args, "data"),
      stringOption(args, "split") ?? benchmark.splits[0] ?? "train",
    );
    const harness = await resolveHarness(benchmark, stringOption(args, "harness") ?? "base");
    const defaults = defaultTrainerConfig(method as TrainerConfig["method"], seed);
    const config: TrainerConfig = {
      ...defaults,
      rolloutBudget: integerOption(args, "budget", defaults.rolloutBudget),
      groupSize: integerOption(args, "group-size", defaults.groupSize),
      promptsPerStep: integerOption(args, "prompts-per-step", defaults.promptsPerStep),
      learningRate: numberOption(stringOption(args, "learning-rate"), "learning-rate", defaults.learningRate),
      epochs: integerOption(args, "epochs", defaults.epochs),
      klCoefficient: numberOption(stringOption(args, "kl"), "kl", defaults.klCoefficient),
    };
    const policy = await createEmbeddedPolicy({
      grammar,
      seed,
      hiddenSizes: [integerOption(args, "hidden", 32)],
    });
    const learner = new EmbeddedGrpoLearner({
      policy,
      learningRate: config.learningRate,
      clip: config.clip,
      klCoefficient: config.klCoefficient,
      aggregation: config.aggregation,
      epochs: config.epochs,
      maxGradNorm: config.maxGradNorm,
    });
    io.stderr(
      `train: ${method} seed ${seed} on ${tasks.length} tasks under ${harness.id}, budget ${config.rolloutBudget} rollouts\n`,
    );
    const summary = await trainGrpo(
      {
        benchmark,
        harness,
        tasks,
        policy,
        learner,
        outDirectory: resolve(out),
        onStep: (metrics) =>
          io.stderr(
            `step ${metrics.step}: rollouts ${metrics.rolloutsTotal}/${config.rolloutBudget} reward ${metrics.reward.toFixed(3)} signal ${metrics.signalShare.toFixed(2)} loss ${(metrics.learner.loss ?? 0).toFixed(4)} (${metrics.wallMs} ms)\n`,
          ),
      },
      config,
    );
    learner.dispose();
    policy.dispose();
    if (args.values.json === true) io.stdout(`${JSON.stringify(summary)}\n`);
    else
      io.stdout(
        `trained ${summary.steps} steps on ${summary.rollouts} rollouts in ${(summary.wallMs / 1000).toFixed(1)} s; final weights in ${summary.finalCheckpoint}\n`,
      );
    return 0;
  },
};
