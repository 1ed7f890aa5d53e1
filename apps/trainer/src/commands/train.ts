import { join } from "node:path";
import { trainMethod } from "@hs/harness-s";
import { EmbeddedGrpoLearner, embeddedReplayAction, harnessCallCredit } from "@hs/learner-embedded";
import { createEmbeddedPolicy } from "@hs/policy-embedded";
import { writeProfileSet } from "@hs/profiles";
import { defaultTrainerConfig, embeddedLearnerOptions } from "@hs/rescue-grpo";
import { replaceAtomically } from "../atomic-file.js";
import { grammarOf } from "../benchmark-selection.js";
import { chatOptions, chatPolicyWording, openChatStack } from "../chat-policy-stack.js";
import type { Command, CommandArguments, CommandIo } from "../command.js";
import { guardFiniteLearner } from "../finite-guard.js";
import { queueExecutorOf, redisOptions } from "../queue-option.js";
import { routerOptionUsage } from "../routers.js";
import { withOwnedRunDirectory } from "../run-directory.js";
import { checkRunConfigFile, readCheckpointStep } from "../run-state-file.js";
import { sharedOption } from "../shared-options.js";
import { openTinkerStack, tinkerOptions, tinkerPolicyWording } from "../tinker-policy-stack.js";
import { trainStepLine } from "../train-step-line.js";
import { loadEmbeddedPolicy } from "./eval.js";
import { type TrainSetup, trainRunFingerprint, trainSetupOf } from "./train-setup.js";

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
    "rescue-gate": sharedOption("rescue-gate"),
    "rescue-replay": {
      type: "string",
      value: "R",
      description:
        "none, or base: each successful rescue rollout is replayed under the base harness with the same actions, and a replay graded a success with every action the same under the base views replaces it (each replay counts as a rollout; embedded policy)",
      defaultNote: "none",
    },
    "rescue-negatives": {
      type: "string",
      value: "SOURCE",
      description:
        "sibling (a rescued group's failures are the rescue's own failed rollouts, plus one base failure unless --no-negative) or base (every failure of the base group, beside the rescue's successes only)",
      defaultNote: "sibling",
    },
    "no-negative": { type: "boolean", description: "do not keep one base failure in a rescued group" },
    "credit-harness-calls": sharedOption("credit-harness-calls"),
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
    const setup = await trainSetupOf(args, io);
    return withOwnedRunDirectory(
      {
        directory: setup.runDirectory,
        command: "train",
        description: `hs train --method ${setup.method} --seed ${setup.seed}`,
        fingerprint: () => trainRunFingerprint(setup, args),
        warn: (message) => io.stderr(`train: ${message}\n`),
      },
      () => trainInOwnedDirectory(setup, args, io),
    );
  },
};

async function embeddedStack(setup: TrainSetup) {
  const { benchmark, init, config } = setup;
  const grammar = grammarOf(benchmark);
  const policy =
    init === undefined
      ? await createEmbeddedPolicy({ grammar, seed: setup.seed, hiddenSizes: [setup.hidden] })
      : await loadEmbeddedPolicy(benchmark, init);
  const grpoLearner = new EmbeddedGrpoLearner({ policy, ...embeddedLearnerOptions(config) });
  const learner = guardFiniteLearner(grpoLearner, policy, await readCheckpointStep(setup.runDirectory));
  const release = async () => {
    grpoLearner.dispose();
    policy.dispose();
  };
  return {
    policy,
    learner,
    release,
    creditHarnessCalls: harnessCallCredit(policy),
    replayAction: embeddedReplayAction(policy),
  };
}

async function weightStackOf(setup: TrainSetup, args: CommandArguments, io: CommandIo) {
  const { backend } = setup;
  if (backend.kind === "tinker")
    return openTinkerStack(args, backend.baseModel, `train-${setup.method}-${setup.seed}`, io.stderr);
  return embeddedStack(setup);
}

function printSummary(
  summary: Awaited<ReturnType<typeof trainMethod>>["summary"],
  args: CommandArguments,
  io: CommandIo,
) {
  if (args.values.json === true) io.stdout(`${JSON.stringify(summary)}\n`);
  else
    io.stdout(
      `trained ${summary.steps} steps on ${summary.rollouts} rollouts in ${(summary.wallMs / 1000).toFixed(1)} s; final weights in ${summary.finalCheckpoint}\n`,
    );
}

async function trainInOwnedDirectory(
  setup: TrainSetup,
  args: CommandArguments,
  io: CommandIo,
): Promise<number> {
  const { benchmark, harness, tasks, config, runDirectory } = setup;
  await checkRunConfigFile(runDirectory);
  const chat = setup.backend.kind === "chat" ? openChatStack(args, io.stderr) : undefined;
  const stack = chat ?? (await weightStackOf(setup, args, io));
  io.stderr(
    `train: ${setup.method} seed ${setup.seed} on ${tasks.length} tasks under ${harness.id}, budget ${config.rolloutBudget} rollouts\n`,
  );
  const executor = queueExecutorOf(args, io, {
    phase: "train",
    run: runDirectory,
    tasks: { data: setup.dataFile, split: setup.split },
    ...("reference" in stack ? { describePolicy: () => stack.reference() } : {}),
  });
  const { summary, profiles } = await trainMethod({
    ...{ benchmark, harness, tasks, policy: stack.policy, learner: stack.learner, config },
    ...{ outDirectory: runDirectory, pool: setup.pool, profiles: setup.profileSet, router: setup.router },
    ...(executor === undefined ? {} : { executor }),
    ...("creditHarnessCalls" in stack ? { creditHarnessCalls: stack.creditHarnessCalls } : {}),
    ...("replayAction" in stack ? { replayAction: stack.replayAction } : {}),
    onProgress: (message) => io.stderr(`${message}\n`),
    onStep: (metrics) => io.stderr(`${trainStepLine(metrics, config.rolloutBudget)}\n`),
  });
  await executor?.close();
  if (profiles !== null && profiles.history.length > 0) {
    await replaceAtomically(join(runDirectory, "profiles.json"), (draft) => writeProfileSet(draft, profiles));
  }
  await stack.release();
  printSummary(summary, args, io);
  return 0;
}
