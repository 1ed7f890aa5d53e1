import { resolve } from "node:path";
import { readProfileSet } from "@hs/profiles";
import {
  defaultTrainerConfig,
  type RescueGate,
  type RescueNegatives,
  rescueGates,
  rescueNegatives,
  samplingMethods,
  type TrainerConfig,
} from "@hs/rescue-grpo";
import { checkStepBudget, numberArgument } from "../arguments.js";
import { loadTaskSet, openBenchmark, resolveHarness, trainSplitOf } from "../benchmark-selection.js";
import { chatOptions, type PolicyBackend, policyBackendOf } from "../chat-policy-stack.js";
import {
  type CommandArguments,
  type CommandIo,
  choiceOf,
  integerOption,
  stringOption,
  UsageError,
} from "../command.js";
import { resolveRouter } from "../routers.js";
import { checkOutputDirectory, type RunFingerprint } from "../run-directory.js";
import { matchProfilesToPool, readPoolFor } from "../strict-inputs.js";
import { tinkerOptions } from "../tinker-policy-stack.js";
import { optionFingerprint, trainFingerprint } from "../train-inputs.js";

/** What `hs train` reads from its arguments, checked before the run directory is taken. */
export interface TrainSetup {
  method: TrainerConfig["method"];
  seed: number;
  runDirectory: string;
  backend: PolicyBackend;
  benchmark: Awaited<ReturnType<typeof openBenchmark>>;
  dataFile: string | undefined;
  split: string;
  tasks: Awaited<ReturnType<typeof loadTaskSet>>;
  harness: Awaited<ReturnType<typeof resolveHarness>>;
  init: string | undefined;
  hidden: number;
  config: TrainerConfig;
  poolFile: string | undefined;
  pool: Awaited<ReturnType<typeof readPoolFor>> | null;
  profilesFile: string | undefined;
  profileSet: Awaited<ReturnType<typeof readProfileSet>> | null;
  routerSpec: string | undefined;
  router: Awaited<ReturnType<typeof resolveRouter>>;
}

function methodAndOut(args: CommandArguments): { method: TrainerConfig["method"]; out: string } {
  const method = stringOption(args, "method");
  const out = stringOption(args, "out");
  if (out === undefined) throw new UsageError("--out DIR is required");
  if (method === undefined || !(samplingMethods as readonly string[]).includes(method)) {
    throw new UsageError(`--method must be one of ${samplingMethods.join(", ")}`);
  }
  return { method: method as TrainerConfig["method"], out };
}

function checkPolicyOptions(args: CommandArguments, backend: PolicyBackend, init: string | undefined): void {
  if (backend.kind !== "embedded" && (init !== undefined || args.values.hidden !== undefined))
    throw new UsageError(
      `--init and --hidden are the embedded policy's; ${backend.kind === "tinker" ? "a tinker: policy starts from its base model" : "a chat policy acts with the served model"}`,
    );
  if (backend.kind !== "embedded" && args.values["credit-harness-calls"] === true)
    throw new UsageError(
      "--credit-harness-calls is the embedded policy's: its grammar recovers the decisions",
    );
  if (init !== undefined && args.values.hidden !== undefined)
    throw new UsageError("--hidden and --init: the network shape comes from the --init weights");
}

function trainerConfigOf(
  args: CommandArguments,
  method: TrainerConfig["method"],
  seed: number,
  init: string | undefined,
): TrainerConfig {
  const defaults = defaultTrainerConfig(method, seed);
  return {
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
      ...(args.values["credit-harness-calls"] === true ? { creditHarnessCalls: true } : {}),
      ...rescueGateOf(args),
      ...rescueReplayOf(args),
      ...rescueNegativesOf(args),
    },
  };
}

/** `--rescue-replay`, set in the config only when given (a run without it keeps its config.json). */
function rescueReplayOf(args: CommandArguments): { replay?: "none" | "base" } {
  const replay = stringOption(args, "rescue-replay");
  return replay === undefined ? {} : { replay: choiceOf("rescue-replay", replay, ["none", "base"] as const) };
}

/** `--rescue-negatives`, set in the config only when given; `base` with `--no-negative` is a contradiction. */
function rescueNegativesOf(args: CommandArguments): { negatives?: RescueNegatives } {
  const text = stringOption(args, "rescue-negatives");
  if (text === undefined) return {};
  const negatives = choiceOf("rescue-negatives", text, rescueNegatives);
  if (negatives === "base" && args.values["no-negative"] === true)
    throw new UsageError(
      "--rescue-negatives base keeps every base failure; it cannot be given with --no-negative",
    );
  return { negatives };
}

/** `--rescue-gate`, set in the config only when given (a run without it keeps its config.json). */
export function rescueGateOf(args: CommandArguments): { gate?: RescueGate } {
  const gate = stringOption(args, "rescue-gate");
  return gate === undefined ? {} : { gate: choiceOf("rescue-gate", gate, rescueGates) };
}

async function profileSetOf(
  args: CommandArguments,
  profilesFile: string | undefined,
  pool: TrainSetup["pool"],
  warn: (message: string) => void,
): Promise<TrainSetup["profileSet"]> {
  if (profilesFile === undefined) return null;
  const allowMismatch = args.values["allow-profile-mismatch"] === true;
  return matchProfilesToPool(
    await readProfileSet(resolve(profilesFile)),
    pool,
    { file: profilesFile, allowMismatch },
    warn,
  );
}

/** Reads and checks `hs train`'s arguments in the order its errors are documented. */
export async function trainSetupOf(args: CommandArguments, io: CommandIo): Promise<TrainSetup> {
  const warn = (message: string) => io.stderr(`${message}\n`);
  const { method, out } = methodAndOut(args);
  const seed = integerOption(args, "seed");
  const poolFile = stringOption(args, "pool");
  const profilesFile = stringOption(args, "profiles");
  const dataFile = stringOption(args, "data");
  const runDirectory = await checkOutputDirectory("--out", out, [
    { option: "--data", path: dataFile },
    { option: "--pool", path: poolFile },
    { option: "--profiles", path: profilesFile },
    { option: "--harness", path: stringOption(args, "harness") },
    { option: "--init", path: stringOption(args, "init") },
  ]);
  const backend = policyBackendOf(args);
  const benchmark = await openBenchmark(args);
  const split = stringOption(args, "split") ?? trainSplitOf(benchmark);
  const tasks = await loadTaskSet(benchmark, dataFile, split, warn);
  const harness = await resolveHarness(benchmark, stringOption(args, "harness") ?? "base");
  const init = stringOption(args, "init");
  checkPolicyOptions(args, backend, init);
  const config = trainerConfigOf(args, method, seed, init);
  checkStepBudget(config.rolloutBudget, config.groupSize, config.promptsPerStep, warn);
  const hidden = integerOption(args, "hidden");
  const pool = poolFile === undefined ? null : await readPoolFor(benchmark, poolFile);
  const profileSet = await profileSetOf(args, profilesFile, pool, warn);
  const routerSpec = stringOption(args, "router");
  const router = await resolveRouter(routerSpec, benchmark);
  return {
    ...{ method, seed, runDirectory, backend, benchmark, dataFile, split, tasks, harness, init, hidden },
    ...{ config, poolFile, pool, profilesFile, profileSet, routerSpec, router },
  };
}

/** The run's fingerprint: what a resumed run must share with the run it resumes. */
export async function trainRunFingerprint(
  setup: TrainSetup,
  args: CommandArguments,
): Promise<RunFingerprint> {
  return {
    ...(await trainFingerprint({
      benchmark: setup.benchmark.id,
      harness: setup.harness,
      tasks: setup.tasks,
      dataFile: setup.dataFile,
      split: setup.split,
      poolFile: setup.poolFile,
      profilesFile: setup.profilesFile,
      init: setup.init,
      hidden: setup.hidden,
      config: setup.config,
    })),
    router: setup.routerSpec ?? "harness-s",
    policy: stringOption(args, "policy") ?? "embedded",
    ...optionFingerprint(args.benchmark?.values ?? {}, args.values, [
      ...Object.keys(chatOptions),
      ...Object.keys(tinkerOptions),
    ]),
  };
}
