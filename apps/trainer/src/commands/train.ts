import { join, resolve } from "node:path";
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
import { checkStepBudget, numberArgument } from "../arguments.js";
import { replaceAtomically } from "../atomic-file.js";
import {
  grammarOf,
  loadTaskSet,
  openBenchmark,
  resolveHarness,
  trainSplitOf,
} from "../benchmark-selection.js";
import { chatOptions, chatPolicyWording, openChatStack, policyBackendOf } from "../chat-policy-stack.js";
import { type Command, integerOption, stringOption, UsageError } from "../command.js";
import { guardFiniteLearner } from "../finite-guard.js";
import { queueExecutorOf, redisOptions } from "../queue-option.js";
import { resolveRouter, routerOptionUsage } from "../routers.js";
import { checkOutputDirectory, withOwnedRunDirectory } from "../run-directory.js";
import { checkRunConfigFile, readCheckpointStep } from "../run-state-file.js";
import { sharedOption } from "../shared-options.js";
import { matchProfilesToPool, readPoolFor } from "../strict-inputs.js";
import { openTinkerStack, tinkerOptions, tinkerPolicyWording } from "../tinker-policy-stack.js";
import { optionFingerprint, trainFingerprint } from "../train-inputs.js";
import { trainStepLine } from "../train-step-line.js";
import { loadEmbeddedPolicy } from "./eval.js";

const trainerDefaults = defaultTrainerConfig("grpo", 0);

/** `hs train`: GRPO training of the embedded policy under the base harness. */
export const trainCommand: Command = {
  name: "train",
  summary: "train a policy (embedded, or an LLM through the Tinker API): grpo, dapo, harness-s, ablations",
  about: `Usage: hs train --bench NAME --method M --seed S --out DIR [--pool pool.json] [options]

Trains the embedded policy on the benchmark's training split and writes DIR/config.json,
DIR/metrics.jsonl (one line per step), DIR/trajectories.jsonl (every rollout), DIR/checkpoints/ and
DIR/final/ (and DIR/profiles.json with their history when profiles were re-anchored). Killed at any moment, the same command continues from the last completed step. Evaluate
with "hs eval --bench NAME --policy embedded:DIR".`,
  options: {
    bench: sharedOption("bench"),
    method: {
      type: "string",
      value: "M",
      description:
        "grpo (all-fail groups give no signal), dapo (dynamic sampling), harness-s (all-fail groups rescued under the router's top-k siblings), single-sibling, random-rescue or all-rescue (ablations; all need --pool)",
    },
    pool: sharedOption("pool"),
    profiles: sharedOption("profiles", {
      description: "profiles for the router (hs profile); none: the router uses validation only",
    }),
    router: sharedOption("router", { description: `harness-s's router: ${routerOptionUsage}` }),
    k: sharedOption("k", { default: trainerDefaults.rescue.k }),
    "rescue-budget": {
      type: "string",
      value: "N",
      description: "rollouts one rescue may spend",
      default: trainerDefaults.rescue.budget,
      number: { kind: "integer", min: 1 },
    },
    "allow-profile-mismatch": sharedOption("allow-profile-mismatch", {
      description: "drop (with a warning) profiles of harnesses not in the pool instead of refusing them",
    }),
    "no-negative": { type: "boolean", description: "do not keep one base failure in a rescued group" },
    "reanchor-every": sharedOption("reanchor-every", {
      description: "re-anchor profiles every N steps (harness-s; 0: never)",
      default: trainerDefaults.rescue.reanchorEvery,
    }),
    seed: sharedOption("seed", { description: "run seed: initial weights, prompt order, rollouts" }),
    out: sharedOption("out", { value: "DIR", description: "run directory (required)" }),
    data: sharedOption("data", { description: "training tasks from a file of the benchmark's format" }),
    split: sharedOption("split", {
      description: "bundled training split (default: the benchmark's training split)",
    }),
    harness: sharedOption("harness"),
    budget: sharedOption("budget", {
      description: "total rollouts",
      default: trainerDefaults.rolloutBudget,
    }),
    "group-size": sharedOption("group-size", {
      description: "rollouts per prompt",
      default: trainerDefaults.groupSize,
    }),
    "prompts-per-step": sharedOption("prompts-per-step", {
      description: "groups per update",
      default: trainerDefaults.promptsPerStep,
    }),
    "learning-rate": {
      type: "string",
      value: "X",
      description: "Adam learning rate",
      default: trainerDefaults.learningRate,
      number: { kind: "number", min: 0, exclusiveMin: true },
    },
    epochs: {
      type: "string",
      value: "E",
      description: "gradient steps per batch",
      default: trainerDefaults.epochs,
      number: { kind: "integer", min: 1 },
    },
    kl: {
      type: "string",
      value: "X",
      description: "k3 KL coefficient to the initial policy",
      default: trainerDefaults.klCoefficient,
      defaultNote: "off",
      number: { kind: "number", min: 0 },
    },
    hidden: {
      type: "string",
      value: "H",
      description: "hidden units of the scoring network",
      default: 32,
      number: { kind: "integer", min: 1, max: 4096 },
    },
    init: {
      type: "string",
      value: "DIR",
      description:
        "start from the weights in DIR (a checkpoint or run directory) instead of the seed's untrained policy; the KL reference is then those weights",
    },
    policy: sharedOption("policy", {
      description: `embedded (default: the embedded policy of --seed), ${chatPolicyWording}, ${tinkerPolicyWording}`,
    }),
    ...chatOptions,
    ...tinkerOptions,
    ...redisOptions,
    json: sharedOption("json", { description: "print the run summary as JSON" }),
  },
  async run(args, io) {
    const method = stringOption(args, "method");
    const out = stringOption(args, "out");
    if (out === undefined) throw new UsageError("--out DIR is required");
    if (method === undefined || !(samplingMethods as readonly string[]).includes(method)) {
      throw new UsageError(`--method must be one of ${samplingMethods.join(", ")}`);
    }
    const seed = integerOption(args, "seed");
    const poolFile = stringOption(args, "pool");
    const profilesFile = stringOption(args, "profiles");
    const runDirectory = await checkOutputDirectory("--out", out, [
      { option: "--data", path: stringOption(args, "data") },
      { option: "--pool", path: poolFile },
      { option: "--profiles", path: profilesFile },
      { option: "--harness", path: stringOption(args, "harness") },
      { option: "--init", path: stringOption(args, "init") },
    ]);
    const backend = policyBackendOf(args);
    const baseModel = backend.kind === "tinker" ? backend.baseModel : undefined;
    const benchmark = await openBenchmark(args);
    const tasks = await loadTaskSet(
      benchmark,
      stringOption(args, "data"),
      stringOption(args, "split") ?? trainSplitOf(benchmark),
      (message) => io.stderr(`${message}\n`),
    );
    const harness = await resolveHarness(benchmark, stringOption(args, "harness") ?? "base");
    const init = stringOption(args, "init");
    if (backend.kind !== "embedded" && (init !== undefined || args.values.hidden !== undefined))
      throw new UsageError(
        `--init and --hidden are the embedded policy's; ${backend.kind === "tinker" ? "a tinker: policy starts from its base model" : "a chat policy acts with the served model"}`,
      );
    if (baseModel !== undefined && args.values.redis !== undefined)
      throw new UsageError(
        "--redis sends the embedded policy's weights to the workers; a tinker: policy's sampler is not sent (run it without --redis)",
      );
    if (init !== undefined && args.values.hidden !== undefined)
      throw new UsageError("--hidden and --init: the network shape comes from the --init weights");
    const defaults = defaultTrainerConfig(method as TrainerConfig["method"], seed);
    const config: TrainerConfig = {
      ...defaults,
      ...(init === undefined ? {} : { initialPolicy: resolve(init) }),
      rolloutBudget: integerOption(args, "budget", defaults.rolloutBudget),
      groupSize: integerOption(args, "group-size", defaults.groupSize),
      promptsPerStep: integerOption(args, "prompts-per-step", defaults.promptsPerStep),
      learningRate: numberArgument(args, "learning-rate", defaults.learningRate),
      epochs: integerOption(args, "epochs", defaults.epochs),
      klCoefficient: numberArgument(args, "kl", defaults.klCoefficient),
      rescue: {
        k: integerOption(args, "k", defaults.rescue.k),
        budget: integerOption(args, "rescue-budget", defaults.rescue.budget),
        keepBaseNegative: args.values["no-negative"] !== true,
        reanchorEvery: integerOption(args, "reanchor-every", defaults.rescue.reanchorEvery),
      },
    };
    checkStepBudget(config.rolloutBudget, config.groupSize, config.promptsPerStep, (message) =>
      io.stderr(`${message}\n`),
    );
    const hidden = integerOption(args, "hidden");
    const pool = poolFile === undefined ? null : await readPoolFor(benchmark, poolFile);
    const profileSet =
      profilesFile === undefined
        ? null
        : matchProfilesToPool(
            await readProfileSet(resolve(profilesFile)),
            pool,
            { file: profilesFile, allowMismatch: args.values["allow-profile-mismatch"] === true },
            (message) => io.stderr(`${message}\n`),
          );
    const routerSpec = stringOption(args, "router");
    const router = await resolveRouter(routerSpec, benchmark);
    const fingerprint = async () => ({
      ...(await trainFingerprint({
        benchmark: benchmark.id,
        harness,
        tasks,
        dataFile: stringOption(args, "data"),
        split: stringOption(args, "split") ?? trainSplitOf(benchmark),
        poolFile,
        profilesFile,
        init,
        hidden,
        config,
      })),
      router: routerSpec ?? "harness-s",
      policy: stringOption(args, "policy") ?? "embedded",
      ...optionFingerprint(args.benchmark?.values ?? {}, args.values, [
        ...Object.keys(chatOptions),
        ...Object.keys(tinkerOptions),
      ]),
    });
    return withOwnedRunDirectory(
      {
        directory: runDirectory,
        command: "train",
        description: `hs train --method ${method} --seed ${seed}`,
        fingerprint,
        warn: (message) => io.stderr(`train: ${message}\n`),
      },
      trainInOwnedDirectory,
    );
    async function embeddedStack() {
      const grammar = grammarOf(benchmark);
      const policy =
        init === undefined
          ? await createEmbeddedPolicy({ grammar, seed, hiddenSizes: [hidden] })
          : await loadEmbeddedPolicy(benchmark, init);
      const grpoLearner = new EmbeddedGrpoLearner({ policy, ...embeddedLearnerOptions(config) });
      const learner = guardFiniteLearner(grpoLearner, policy, await readCheckpointStep(runDirectory));
      const release = async () => {
        grpoLearner.dispose();
        policy.dispose();
      };
      return { policy, learner, release };
    }
    async function trainInOwnedDirectory(): Promise<number> {
      await checkRunConfigFile(runDirectory);
      const chat = backend.kind === "chat" ? openChatStack(args, io.stderr) : undefined;
      const { policy, learner, release } =
        chat ??
        (baseModel === undefined
          ? await embeddedStack()
          : await openTinkerStack(args, baseModel, `train-${method}-${seed}`, io.stderr));
      io.stderr(
        `train: ${method} seed ${seed} on ${tasks.length} tasks under ${harness.id}, budget ${config.rolloutBudget} rollouts\n`,
      );
      const executor = queueExecutorOf(args, io, {
        phase: "train",
        run: runDirectory,
        tasks: {
          data: stringOption(args, "data"),
          split: stringOption(args, "split") ?? trainSplitOf(benchmark),
        },
        ...(chat === undefined ? {} : { describePolicy: async () => chat.reference }),
      });
      const { summary, profiles } = await trainMethod({
        benchmark,
        harness,
        tasks,
        policy,
        learner,
        config,
        outDirectory: runDirectory,
        pool,
        profiles: profileSet,
        router,
        ...(executor === undefined ? {} : { executor }),
        onProgress: (message) => io.stderr(`${message}\n`),
        onStep: (metrics) => io.stderr(`${trainStepLine(metrics, config.rolloutBudget)}\n`),
      });
      await executor?.close();
      if (profiles !== null && profiles.history.length > 0) {
        await replaceAtomically(join(runDirectory, "profiles.json"), (draft) =>
          writeProfileSet(draft, profiles),
        );
      }
      await release();
      if (args.values.json === true) io.stdout(`${JSON.stringify(summary)}\n`);
      else
        io.stdout(
          `trained ${summary.steps} steps on ${summary.rollouts} rollouts in ${(summary.wallMs / 1000).toFixed(1)} s; final weights in ${summary.finalCheckpoint}\n`,
        );
      return 0;
    }
  },
};
