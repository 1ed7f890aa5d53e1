import { existsSync } from "node:fs";
import { join } from "node:path";
import type { LearnerV1, PolicyV1 } from "@hs/harness";
import { ChatRenderer, TinkerClient, TinkerGrpoLearner, TinkerSamplerPolicy } from "@hs/tinker";
import { type CommandArguments, integerOption, stringOption, UsageError } from "./command.js";

/** The options `hs train` takes for `--policy tinker:BASE_MODEL`. */
export const tinkerOptions = {
  "tinker-url": { type: "string" },
  tokenizer: { type: "string" },
  "lora-rank": { type: "string" },
  "max-tokens": { type: "string" },
} as const;

/** Their usage lines. */
export const tinkerUsage = `  --policy SPEC          embedded (default: the embedded policy of --seed) or tinker:BASE_MODEL (an LLM
                         trained through the Tinker API: Tinker, or SkyRL's server)
  --tinker-url URL       the Tinker API server (with tinker:; the key is read from TINKER_API_KEY)
  --tokenizer DIR        directory with the model's tokenizer.json and tokenizer_config.json (with tinker:)
  --lora-rank R          LoRA rank of the trained adapter (default 32)
  --max-tokens N         tokens sampled per step (default 512)`;

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

/** Opens a session on the server, renders with the model's own tokenizer and chat template. */
export async function openTinkerStack(
  args: CommandArguments,
  baseModel: string,
  runName: string,
): Promise<TinkerStack> {
  const baseUrl = stringOption(args, "tinker-url");
  const tokenizer = stringOption(args, "tokenizer");
  if (baseUrl === undefined) throw new UsageError("--policy tinker:...: --tinker-url URL is required");
  if (tokenizer === undefined) throw new UsageError("--policy tinker:...: --tokenizer DIR is required");
  const apiKey = process.env.TINKER_API_KEY;
  const client = new TinkerClient({ baseUrl, ...(apiKey === undefined ? {} : { apiKey }) });
  const renderer = await ChatRenderer.fromDirectory(tokenizer);
  await client.createSession(["harness-s", runName]);
  const policy = new TinkerSamplerPolicy({
    client,
    renderer,
    baseModel,
    maxTokens: integerOption(args, "max-tokens", 512),
  });
  const learner = new TinkerGrpoLearner({
    client,
    policy,
    baseModel,
    loraConfig: { rank: integerOption(args, "lora-rank", 32) },
    runName,
  });
  return { policy, learner, release: () => client.close() };
}

/** `hs eval`'s Tinker options: those of training and the run whose weights are evaluated. */
export const tinkerEvalOptions = { ...tinkerOptions, "tinker-run": { type: "string" } } as const;

/** Their usage lines. */
export const tinkerEvalUsage = `${tinkerUsage}
  --tinker-run DIR       with tinker:, evaluate the weights an hs train run (or one of its checkpoints) saved`;

/** The sampler of a Tinker model for evaluation: the base model, or the weights of a training run. */
export async function openTinkerEvaluation(args: CommandArguments, baseModel: string): Promise<TinkerStack> {
  const stack = await openTinkerStack(args, baseModel, "eval");
  const run = stringOption(args, "tinker-run");
  if (run !== undefined) {
    const final = join(run, "final");
    await stack.learner.load(existsSync(join(final, "tinker-checkpoint.json")) ? final : run);
  }
  return stack;
}
