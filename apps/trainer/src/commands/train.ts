import { join, resolve } from "node:path";
import { readPool } from "@hs/evolution";
import { trainMethod } from "@hs/harness-s";
import { EmbeddedGrpoLearner } from "@hs/learner-embedded";
import { createEmbeddedPolicy } from "@hs/policy-embedded";
import { readProfileSet, writeProfileSet } from "@hs/profiles";
import {
  defaultTrainerConfig,
  embeddedLearnerOptions,
  samplingMethods,
  type TrainerConfig,
} from "@hs/rescue-grpo";
import {
  grammarOf,
  loadTaskSet,
  openBenchmark,
  resolveHarness,
  trainSplitOf,
} from "../benchmark-selection.js";
import { type Command, integerOption, stringOption, UsageError } from "../command.js";
import { resolveRouter, routerOptionUsage } from "../routers.js";
import { loadEmbeddedPolicy } from "./eval.js";

function numberOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new UsageError(`--${name} expects a number, got "${value}"`);
  return parsed;
}

/** `hs train`: GRPO training of the embedded policy under the base harness. */
export const trainCommand: Command = {
  name: "train",
  summary: "train the embedded policy: grpo, dapo, harness-s and the rescue ablations",
  usage: `Usage: hs train --bench NAME --method M --seed S --out DIR [--pool pool.json] [options]

Trains the embedded policy on the benchmark's training split and writes DIR/config.json,
DIR/metrics.jsonl (one line per step), DIR/trajectories.jsonl (every rollout), DIR/checkpoints/ and
DIR/final/ (and DIR/profiles.json with their history when profiles were re-anchored). Killed at any moment, the same command continues from the last completed step. Evaluate
with "hs eval --bench NAME --policy embedded:DIR".

Options:
  --bench NAME           benchmark: dbbench, swegym, appworld, a plugin package or a path to one
  --method M             grpo (all-fail groups give no signal), dapo (dynamic sampling), harness-s
                         (all-fail groups rescued under the router's top-k siblings), single-sibling,
                         random-rescue or all-rescue (ablations; all need --pool)
  --pool FILE            the frozen sibling pool (hs evolve)
  --profiles FILE        profiles for the router (hs profile); none: the router uses validation only
  --router SPEC          harness-s's router: ${routerOptionUsage}
  --k K                  siblings per rescue (default 2)
  --rescue-budget N      rollouts one rescue may spend (default 8)
  --no-negative          do not keep one base failure in a rescued group
  --reanchor-every N     re-anchor profiles every N steps (harness-s; default 0: never)
  --seed S               run seed: initial weights, prompt order, rollouts (default 0)
  --out DIR              run directory (required)
  --data FILE            training tasks from a file of the benchmark's format
  --split NAME           bundled training split (default: the benchmark's first split)
  --harness NAME         base (default), a preset, or a harness JSON file
  --budget N             total rollouts (default 3072)
  --group-size G         rollouts per prompt (default 8)
  --prompts-per-step P   groups per update (default 8)
  --learning-rate X      Adam learning rate (default 0.05)
  --epochs E             gradient steps per batch (default 2)
  --kl X                 k3 KL coefficient to the initial policy (default 0: off)
  --hidden H             hidden units of the scoring network (default 32)
  --init DIR             start from the weights in DIR (a checkpoint or run directory) instead of
                         the seed's untrained policy; the KL reference is then those weights
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
    init: { type: "string" },
    pool: { type: "string" },
    profiles: { type: "string" },
    router: { type: "string" },
    k: { type: "string" },
    "rescue-budget": { type: "string" },
    "no-negative": { type: "boolean" },
    "reanchor-every": { type: "string" },
    json: { type: "boolean" },
  },
  async run(args, io) {
    const method = stringOption(args, "method");
    const out = stringOption(args, "out");
    if (out === undefined) throw new UsageError("--out DIR is required");
    if (method === undefined || !(samplingMethods as readonly string[]).includes(method)) {
      throw new UsageError(`--method must be one of ${samplingMethods.join(", ")}`);
    }
    const seed = integerOption(args, "seed", 0);
    const benchmark = await openBenchmark(args);
    const grammar = grammarOf(benchmark);
    const tasks = await loadTaskSet(
      benchmark,
      stringOption(args, "data"),
      stringOption(args, "split") ?? trainSplitOf(benchmark),
    );
    const harness = await resolveHarness(benchmark, stringOption(args, "harness") ?? "base");
    const init = stringOption(args, "init");
    if (init !== undefined && args.values.hidden !== undefined)
      throw new UsageError("--hidden and --init: the network shape comes from the --init weights");
    const defaults = defaultTrainerConfig(method as TrainerConfig["method"], seed);
    const config: TrainerConfig = {
      ...defaults,
      ...(init === undefined ? {} : { initialPolicy: resolve(init) }),
      rolloutBudget: integerOption(args, "budget", defaults.rolloutBudget),
      groupSize: integerOption(args, "group-size", defaults.groupSize),
      promptsPerStep: integerOption(args, "prompts-per-step", defaults.promptsPerStep),
      learningRate: numberOption(stringOption(args, "learning-rate"), "learning-rate", defaults.learningRate),
      epochs: integerOption(args, "epochs", defaults.epochs),
      klCoefficient: numberOption(stringOption(args, "kl"), "kl", defaults.klCoefficient),
      rescue: {
        k: integerOption(args, "k", defaults.rescue.k),
        budget: integerOption(args, "rescue-budget", defaults.rescue.budget),
        keepBaseNegative: args.values["no-negative"] !== true,
        reanchorEvery: integerOption(args, "reanchor-every", defaults.rescue.reanchorEvery),
      },
    };
    const poolFile = stringOption(args, "pool");
    const profilesFile = stringOption(args, "profiles");
    const policy =
      init === undefined
        ? await createEmbeddedPolicy({ grammar, seed, hiddenSizes: [integerOption(args, "hidden", 32)] })
        : await loadEmbeddedPolicy(benchmark, init);
    const learner = new EmbeddedGrpoLearner({ policy, ...embeddedLearnerOptions(config) });
    io.stderr(
      `train: ${method} seed ${seed} on ${tasks.length} tasks under ${harness.id}, budget ${config.rolloutBudget} rollouts\n`,
    );
    const { summary, profiles } = await trainMethod({
      benchmark,
      harness,
      tasks,
      policy,
      learner,
      config,
      outDirectory: resolve(out),
      pool: poolFile === undefined ? null : await readPool(resolve(poolFile)),
      profiles: profilesFile === undefined ? null : await readProfileSet(resolve(profilesFile)),
      router: await resolveRouter(stringOption(args, "router"), benchmark),
      onProgress: (message) => io.stderr(`${message}\n`),
      onStep: (metrics) =>
        io.stderr(
          `step ${metrics.step}: rollouts ${metrics.rolloutsTotal}/${config.rolloutBudget} reward ${metrics.reward.toFixed(3)} signal ${metrics.signalShare.toFixed(2)}${metrics.rescue.attempts ? ` rescued ${metrics.rescue.successes ?? 0}/${metrics.rescue.attempts} (${metrics.rolloutsRescue} rollouts)` : ""} loss ${(metrics.learner.loss ?? 0).toFixed(4)} (${metrics.wallMs} ms)\n`,
        ),
    });
    if (profiles !== null && profiles.history.length > 0) {
      await writeProfileSet(join(resolve(out), "profiles.json"), profiles);
    }
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
