import { createChatPolicy, reportFailures, summarizeFailures } from "@hs/chat-policy";
import { chatPolicyReference, type PolicyReference } from "@hs/queue";
import type { LearnerV1, PolicyV1 } from "@hs/spec";
import { type CommandArguments, integerOption, stringOption, UsageError } from "./command.js";
import type { OptionTable } from "./option-table.js";
import { createServedModelLearner } from "./served-model-learner.js";
import { tinkerBaseModel } from "./tinker-policy-stack.js";

/** The options `hs train` takes for `--policy chat`. */
export const chatOptions = {
  "chat-url": {
    type: "string",
    value: "URL",
    description:
      "with --policy chat: the OpenAI-compatible endpoint up to /v1 (the key is read from HS_OPENAI_API_KEY or OPENAI_API_KEY, on every worker from its own environment)",
  },
  "chat-model": {
    type: "string",
    value: "NAME",
    description: "with --policy chat: the model's name at that endpoint",
  },
  "chat-timeout": {
    type: "string",
    value: "MS",
    description: "with --policy chat: time limit of one model call attempt",
    default: 120_000,
    number: { kind: "integer", min: 1 },
    needs: "chat-model",
  },
  "chat-concurrency": {
    type: "string",
    value: "N",
    description:
      "with --policy chat: model calls in flight at once (per process: the trainer's, or each worker's)",
    default: 8,
    number: { kind: "integer", min: 1, max: 256 },
    needs: "chat-model",
  },
} as const satisfies OptionTable;

/** `--policy` of `hs train`: the embedded policy, a model behind a chat endpoint, or Tinker. */
export const chatPolicyWording =
  "chat (a model behind an OpenAI-compatible endpoint, --chat-url and --chat-model: rollouts, advantages and rescues are computed, its weights are not changed)";

/** The policy backend `--policy SPEC` names. */
export type PolicyBackend = { kind: "embedded" } | { kind: "chat" } | { kind: "tinker"; baseModel: string };

/** Reads `--policy` (embedded, chat or tinker:MODEL) and refuses chat options without `--policy chat`. */
export function policyBackendOf(args: CommandArguments): PolicyBackend {
  const spec = stringOption(args, "policy");
  if (spec !== "chat") {
    const given = Object.keys(chatOptions).filter((name) => args.values[name] !== undefined);
    if (given.length > 0) throw new UsageError(`--${given[0]} is an option of --policy chat`);
    if (spec !== undefined && spec !== "embedded" && !spec.startsWith("tinker:"))
      throw new UsageError(`--policy ${spec}: expected embedded, chat or tinker:BASE_MODEL`);
    const baseModel = tinkerBaseModel(spec);
    return baseModel === undefined ? { kind: "embedded" } : { kind: "tinker", baseModel };
  }
  for (const name of ["chat-url", "chat-model"])
    if (stringOption(args, name) === undefined) throw new UsageError(`--policy chat: --${name} is required`);
  return { kind: "chat" };
}

/** A chat policy with the learner of a served model, what workers are sent, and what ends the run. */
export interface ChatStack {
  /** The policy (in this process; workers build their own from `reference`). */
  policy: PolicyV1;
  /** Counts updates; takes no gradient step. */
  learner: LearnerV1;
  /** What a queue job names: endpoint, model and settings, never the key. */
  reference(): Promise<PolicyReference>;
  /** Writes the closing line when calls failed. */
  release(): Promise<void>;
}

/** Builds the `--policy chat` stack from `--chat-url`, `--chat-model`, `--chat-timeout`, `--chat-concurrency`. */
export function openChatStack(args: CommandArguments, stderr: (text: string) => void): ChatStack {
  const settings = {
    baseURL: stringOption(args, "chat-url") as string,
    model: stringOption(args, "chat-model") as string,
    timeoutMs: integerOption(args, "chat-timeout"),
    maxConcurrency: integerOption(args, "chat-concurrency"),
  };
  if (!/^https?:\/\//.test(settings.baseURL))
    throw new UsageError(`--chat-url ${settings.baseURL}: expected an http:// or https:// URL`);
  const write = (line: string) => stderr(`${line}\n`);
  const policy = createChatPolicy({ ...settings, ...reportFailures("chat policy", write) });
  return {
    policy,
    learner: createServedModelLearner(settings.model),
    reference: async () => chatPolicyReference(settings),
    async release() {
      const summary = summarizeFailures("chat policy", policy.stats);
      if (summary !== undefined) write(summary);
    },
  };
}
