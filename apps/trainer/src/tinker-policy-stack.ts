import { existsSync } from "node:fs";
import { join } from "node:path";
import { InvalidInputError, type LearnerV1, type PolicyV1 } from "@hs/harness";
import {
  ChatRenderer,
  defaultCallPolicy,
  TinkerClient,
  TinkerGrpoLearner,
  TinkerSamplerPolicy,
  type WaitNotice,
} from "@hs/tinker";
import { type CommandArguments, integerOption, stringOption, UsageError } from "./command.js";
import { createOutboundCalls, type OutboundCalls } from "./outbound-calls.js";

/** The options `hs train` takes for `--policy tinker:BASE_MODEL`. */
export const tinkerOptions = {
  "tinker-url": { type: "string" },
  tokenizer: { type: "string" },
  "lora-rank": { type: "string" },
  "max-tokens": { type: "string" },
  "tinker-deadline": { type: "string" },
} as const;

/** Their usage lines. */
export const tinkerUsage = `  --policy SPEC          embedded (default: the embedded policy of --seed) or tinker:BASE_MODEL (an LLM
                         trained through the Tinker API: Tinker, or SkyRL's server)
  --tinker-url URL       the Tinker API server (with tinker:; the key is read from TINKER_API_KEY)
  --tokenizer DIR        directory with the model's tokenizer.json and tokenizer_config.json (with tinker:)
  --lora-rank R          LoRA rank of the trained adapter (default 32)
  --max-tokens N         tokens sampled per step (default 512)
  --tinker-deadline S    longest wait for one Tinker call, submission and result, in seconds (default
                         3600); while a call waits, a line on stderr every 10 s`;

/** A policy and learner that live on a Tinker server, with what releases them. */
export interface TinkerStack {
  /** The token-level sampler policy. */
  policy: PolicyV1;
  /** The learner taking gradient steps on the server. */
  learner: LearnerV1;
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
  const deadlineSeconds = integerOption(args, "tinker-deadline", defaultCallPolicy.deadlineMs / 1000);
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
    maxTokens: integerOption(args, "max-tokens", 512),
  });
  const learner = new TinkerGrpoLearner({
    client,
    policy: sampler,
    baseModel,
    loraConfig: { rank: integerOption(args, "lora-rank", 32) },
    runName,
  });
  const calls = createOutboundCalls(stderr);
  const failures: unknown[] = [];
  const release = async () => {
    await client.close();
    const summary = calls.summary(runName);
    const [first] = failures;
    if (summary !== null)
      throw new Error(`${summary}; the first: ${first instanceof Error ? first.message : String(first)}`);
  };
  return { policy: reportedPolicy(sampler, calls, failures), learner, release };
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
export const tinkerEvalOptions = { ...tinkerOptions, "tinker-run": { type: "string" } } as const;

/** Their usage lines. */
export const tinkerEvalUsage = `${tinkerUsage}
  --tinker-run DIR       with tinker:, evaluate the weights an hs train run (or one of its checkpoints) saved`;

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
