import {
  type BenchmarkPluginContextV1,
  type BenchmarkPluginV1,
  InvalidInputError,
  type PluginOptionValues,
} from "@hs/spec";
import { createAppWorld } from "./create-appworld.js";

function stringOption(values: PluginOptionValues, name: string): string | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new InvalidInputError(`--${name} takes a value`, { field: name });
  return value;
}

function positiveNumber(values: PluginOptionValues, name: string): number | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  const number = Number(text);
  if (!Number.isFinite(number) || number <= 0)
    throw new InvalidInputError(`--${name} must be a positive number, got "${text}"`, { field: name });
  return number;
}

function integerOption(values: PluginOptionValues, name: string, minimum: number): number | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  const number = Number(text);
  if (!Number.isInteger(number) || number < minimum)
    throw new InvalidInputError(`--${name} must be an integer of at least ${minimum}, got "${text}"`, {
      field: name,
    });
  return number;
}

/** `hs --bench appworld`: the AppWorld benchmark as a plugin. */
export const benchmarkPlugin: BenchmarkPluginV1 = {
  specificationVersion: "v1",
  id: "appworld",
  description:
    "AppWorld: Python agents on app APIs; real environment servers or the offline world of this package.",
  options: {
    "server-urls": {
      type: "string",
      description:
        "Comma-separated URLs of `appworld serve environment` servers, one per parallel episode (absent: the offline world).",
    },
    "experiment-name": {
      type: "string",
      description: "Experiment name sent to /initialize (default harness-s).",
    },
    "appworld-root": {
      type: "string",
      description: "AppWorld root of a real install, for its data/datasets/<split>.txt.",
    },
    parallelism: {
      type: "string",
      description: "Offline servers to start, i.e. parallel offline episodes (default 4).",
    },
    sandbox: {
      type: "string",
      description: "Offline Python sandbox: bwrap (default when installed) or none.",
    },
    "timeout-seconds": {
      type: "string",
      description:
        "Seconds one execute may run (offline default 10; sent to real servers as timeout_seconds, whose default is 100).",
    },
    "max-interactions": {
      type: "string",
      description: "max_interactions sent to real servers' /initialize (AppWorld's default 1000).",
    },
    "random-seed": {
      type: "string",
      description: "random_seed sent to real servers' /initialize (AppWorld's default 100).",
    },
    "remote-apis-url": {
      type: "string",
      description: "remote_apis_url sent to real servers' /initialize (a separate `appworld serve apis`).",
    },
    "outputs-dir": {
      type: "string",
      description:
        "Where <experiment>/evaluations/<dataset>.json are written (default <appworld-root>/experiments/outputs).",
    },
  },
  grammarModule: "@hs/grammar-appworld",
  // an episode starts a sandboxed python3 and runs up to 50 cells (about 0.3-0.6 s), DBBench's about 0.01 s;
  // evolution at 4 rollouts a task admits three directions where 2 admitted one (train only, experiment 6)
  mainJobDefaults: {
    budget: 512,
    evolveTasks: 40,
    rollouts: 4,
    generations: 1,
    candidates: 2,
    maxFailures: 160,
    promptsPerStep: 4,
  },
  async createBenchmark(values: PluginOptionValues, context: BenchmarkPluginContextV1 = {}) {
    const urls = stringOption(values, "server-urls");
    const serverUrls = urls
      ?.split(",")
      .map((url) => url.trim())
      .filter((url) => url !== "");
    for (const url of serverUrls ?? []) {
      if (!/^https?:\/\/[^\s/]+/.test(url))
        throw new InvalidInputError(`not an http(s) URL: "${url}"`, { field: "server-urls" });
    }
    const sandbox = stringOption(values, "sandbox");
    if (sandbox !== undefined && sandbox !== "bwrap" && sandbox !== "none") {
      throw new InvalidInputError(`--sandbox must be bwrap or none, got "${sandbox}"`, { field: "sandbox" });
    }
    const experimentName = stringOption(values, "experiment-name");
    const appworldRoot = stringOption(values, "appworld-root");
    const parallelism = positiveNumber(values, "parallelism");
    const timeoutSeconds = positiveNumber(values, "timeout-seconds");
    const maxInteractions = integerOption(values, "max-interactions", 1);
    const randomSeed = integerOption(values, "random-seed", 0);
    const remoteApisUrl = stringOption(values, "remote-apis-url");
    if (remoteApisUrl !== undefined && !/^https?:\/\/[^\s/]+/.test(remoteApisUrl))
      throw new InvalidInputError(`not an http(s) URL: "${remoteApisUrl}"`, { field: "remote-apis-url" });
    if (serverUrls !== undefined && timeoutSeconds !== undefined && !Number.isInteger(timeoutSeconds))
      throw new InvalidInputError(
        `--timeout-seconds must be whole seconds for a real server (its timeout_seconds is an int), got ${timeoutSeconds}`,
        { field: "timeout-seconds" },
      );
    const outputsDirectory = stringOption(values, "outputs-dir");
    const initializeOptions = {
      ...(maxInteractions === undefined ? {} : { max_interactions: maxInteractions }),
      ...(randomSeed === undefined ? {} : { random_seed: randomSeed }),
      ...(remoteApisUrl === undefined ? {} : { remote_apis_url: remoteApisUrl }),
    };
    return createAppWorld({
      initializeOptions,
      ...(outputsDirectory === undefined ? {} : { outputsDirectory }),
      ...(context.actionGrammar === undefined ? {} : { actionGrammar: context.actionGrammar }),
      ...(serverUrls === undefined ? {} : { serverUrls }),
      ...(experimentName === undefined ? {} : { experimentName }),
      ...(appworldRoot === undefined ? {} : { appworldRoot }),
      ...(parallelism === undefined ? {} : { parallelism: Math.floor(parallelism) }),
      ...(sandbox === undefined ? {} : { sandbox }),
      ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
    });
  },
};
