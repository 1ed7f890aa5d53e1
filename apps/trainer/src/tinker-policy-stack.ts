import { existsSync } from "node:fs";
import { join } from "node:path";
import { type PolicyReference, tinkerPolicyReference, tinkerSamplerSettings } from "@hs/queue";
import { InvalidInputError, type LearnerV1, type PolicyV1 } from "@hs/spec";
import {
  ChatRenderer,
  defaultCallPolicy,
  TinkerClient,
  TinkerGrpoLearner,
  TinkerSamplerPolicy,
  type WaitNotice,
} from "@hs/tinker";
import { type CommandArguments, integerOption, stringOption, UsageError } from "./command.js";
import type { OptionTable } from "./option-table.js";
import { createOutboundCalls, type OutboundCalls } from "./outbound-calls.js";

/** The options `hs train` takes for `--policy tinker:BASE_MODEL`. */
export const tinkerOptions = {
  "tinker-url": {
    type: "string",
    value: "URL",
    description: "the Tinker API server (with tinker:; the key is read from TINKER_API_KEY)",
  },
  tokenizer: {
    type: "string",
    value: "DIR",
    description: "directory with the model's tokenizer.json and tokenizer_config.json (with tinker:)",
  },
  "lora-rank": {
    type: "string",
    value: "R",
    description: "LoRA rank of the trained adapter",
    default: 32,
  },
  "max-tokens": {
    type: "string",
    value: "N",
    description: "tokens sampled per step",
    default: 512,
  },
  "tinker-deadline": {
    type: "string",
    value: "S",
    description:
      "longest wait for one Tinker call, submission and result, in seconds; while a call waits, a line on stderr every 10 s",
    default: defaultCallPolicy.deadlineMs / 1000,
  },
} as const satisfies OptionTable;

/** `--policy` of the commands that train or evaluate through the Tinker API too. */
export const tinkerPolicyWording =
  "or tinker:BASE_MODEL (an LLM trained through the Tinker API: Tinker, or SkyRL's server; options below)";

/** A policy and learner that live on a Tinker server, with what releases them. */
export interface TinkerStack {
  /** The token-level sampler policy. */
  policy: PolicyV1;
  /** The learner taking gradient steps on the server. */
  learner: LearnerV1;
  /**
   * What a queue job names at the sampler's current version: server, base model, tokenizer and the
   * sampler path the learner saved, never the API key (workers read their own).
   */
  reference(): Promise<PolicyReference>;
  /** Ends the session. */
  release(): Promise<void>;
}

/** The base model of `--policy tinker:MODEL`, or undefined for the embedded policy. */
export function tinkerBaseModel(spec: string | undefined): string | undefined {
  if (spec === undefined || spec === "embedded") return undefined;
  if (!spec.startsWith("tinker:") || spec.length === "tinker:".length)
    throw new UsageError(`--policy ${spec}: expected embedded or tinker:BASE_MODEL`);
  return spec.slice("tinker:".length);
}

/** The progress line of a Tinker call that waits. */
export function waitLine(notice: WaitNotice): string {
  const seconds = (milliseconds: number) => Math.round(milliseconds / 1000);
  return `tinker: waiting on ${notice.waitedOn} for ${seconds(notice.elapsedMs)} s of ${seconds(notice.deadlineMs)} s (${notice.state})\n`;
}

/** A client for `--tinker-url`, refusing a URL that is not http(s) before any request. */
export function tinkerClientFor(args: CommandArguments, stderr: (text: string) => void): TinkerClient {
  const baseUrl = stringOption(args, "tinker-url");
  if (baseUrl === undefined) throw new UsageError("--policy tinker:...: --tinker-url URL is required");
  const deadlineSeconds = integerOption(args, "tinker-deadline");
  if (deadlineSeconds <= 0) throw new UsageError("--tinker-deadline must be a positive number of seconds");
  const apiKey = process.env.TINKER_API_KEY;
  try {
    return new TinkerClient({
      baseUrl,
      deadlineMs: deadlineSeconds * 1000,
      onProgress: (notice) => stderr(waitLine(notice)),
      ...(apiKey === undefined ? {} : { apiKey }),
    });
  } catch (error) {
    if (error instanceof InvalidInputError) throw new UsageError(`--tinker-url: ${error.message}`);
    throw error;
  }
}

/** Opens a session on the server, renders with the model's own tokenizer and chat template. */
export async function openTinkerStack(
  args: CommandArguments,
  baseModel: string,
  runName: string,
  stderr: (text: string) => void = (text) => process.stderr.write(text),
): Promise<TinkerStack> {
  const tokenizer = stringOption(args, "tokenizer");
  const client = tinkerClientFor(args, stderr);
  if (tokenizer === undefined) throw new UsageError("--policy tinker:...: --tokenizer DIR is required");
  const renderer = await ChatRenderer.fromDirectory(tokenizer);
  await client.createSession(["harness-s", runName]);
  const sampler = new TinkerSamplerPolicy({
    client,
    renderer,
    baseModel,
    maxTokens: integerOption(args, "max-tokens"),
  });
  const learner = new TinkerGrpoLearner({
    client,
    policy: sampler,
    baseModel,
    loraConfig: { rank: integerOption(args, "lora-rank") },
    runName,
  });
  const settings = once(() =>
    tinkerSamplerSettings({
      baseUrl: client.transport.baseUrl,
      baseModel,
      tokenizerDirectory: tokenizer,
      maxTokens: integerOption(args, "max-tokens"),
      deadlineMs: integerOption(args, "tinker-deadline") * 1000,
    }),
  );
  const reference = async () => tinkerPolicyReference(await settings(), sampler);
  const calls = createOutboundCalls(stderr);
  const failures: unknown[] = [];
  const release = async () => {
    await client.close();
    const summary = calls.summary(runName);
    const [first] = failures;
    if (summary !== null)
      throw new Error(`${summary}; the first: ${first instanceof Error ? first.message : String(first)}`);
  };
  return { policy: reportedPolicy(sampler, calls, failures), learner, reference, release };
}

/** `make` called on first use only; a failure is not kept. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make().catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return made;
  };
}

/**
 * The sampler with each failed call reported once on stderr and counted: the harness runtime records
 * a policy's failure as the episode's error, so without this a broken Tinker reply would pass as a
 * failed task; `release` then fails the command with the count.
 */
function reportedPolicy(sampler: TinkerSamplerPolicy, calls: OutboundCalls, failures: unknown[]): PolicyV1 {
  return {
    specificationVersion: sampler.specificationVersion,
    id: sampler.id,
    get version() {
      return sampler.version;
    },
    async act(view, options) {
      try {
        return await sampler.act(view, options);
      } catch (error) {
        if (!(error instanceof Error && error.name === "HarnessSCancelledError")) {
          calls.report("tinker sampler", error);
          failures.push(error);
        }
        throw error;
      }
    },
  };
}

/** `hs eval`'s Tinker options: those of training and the run whose weights are evaluated. */
export const tinkerEvalOptions = {
  ...tinkerOptions,
  "tinker-run": {
    type: "string",
    value: "DIR",
    description: "with tinker:, evaluate the weights an hs train run (or one of its checkpoints) saved",
  },
} as const satisfies OptionTable;

/** The sampler of a Tinker model for evaluation: the base model, or the weights of a training run. */
export async function openTinkerEvaluation(
  args: CommandArguments,
  baseModel: string,
  stderr?: (text: string) => void,
): Promise<TinkerStack> {
  const stack = await openTinkerStack(args, baseModel, "eval", stderr);
  const run = stringOption(args, "tinker-run");
  if (run !== undefined) {
    const final = join(run, "final");
    await stack.learner.load(existsSync(join(final, "tinker-checkpoint.json")) ? final : run);
  }
  return stack;
}
