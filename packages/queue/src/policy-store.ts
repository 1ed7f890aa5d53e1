import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ChatPolicyOptions, createChatPolicy } from "@hs/chat-policy";
import { createEmbeddedPolicy, EmbeddedPolicy, policyFileName, readPolicyConfig } from "@hs/policy-embedded";
import { type ActionGrammarV1, InvalidInputError, type PolicyV1 } from "@hs/spec";
import type { Redis } from "ioredis";
import type { PolicyReference } from "./rollout-job.js";
import type { TinkerSamplers } from "./tinker-samplers.js";

/** How long published weights stay in Redis (seconds): long enough for any step's rollouts. */
const weightsTimeToLiveSeconds = 7 * 24 * 3600;

const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

/**
 * Publishes the embedded policy's weights at its current version: the bytes its `save` writes (the same
 * `policy.json` the run's checkpoints hold) go to Redis under a key named by run, version and content
 * hash, so workers on other machines load exactly these weights.
 */
export async function publishEmbeddedPolicy(
  redis: Redis,
  run: string,
  policy: EmbeddedPolicy,
): Promise<PolicyReference> {
  const directory = await mkdtemp(join(tmpdir(), "hs-queue-weights-"));
  try {
    await policy.save(directory);
    const bytes = await readFile(join(directory, policyFileName));
    const digest = sha256(bytes);
    const weightsKey = `hs:weights:${run}:${policy.version}:${digest.slice(0, 16)}`;
    await redis.set(weightsKey, bytes, "EX", weightsTimeToLiveSeconds);
    return { kind: "embedded", id: policy.id, version: policy.version, weightsKey, weightsSha256: digest };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** The reference of a chat policy built from these options (no API key: each worker uses its own). */
export function chatPolicyReference(
  options: Omit<
    ChatPolicyOptions,
    "apiKey" | "fetch" | "onRetry" | "onError" | "sleep" | "random" | "now" | "env"
  >,
): PolicyReference {
  const { baseURL, model, id, version, ...settings } = options as ChatPolicyOptions;
  if (baseURL === undefined)
    throw new InvalidInputError("a chat policy on the queue needs an explicit baseURL", { field: "baseURL" });
  return {
    kind: "chat",
    id: id ?? `openai-compatible:${model}`,
    version: version ?? model,
    baseURL,
    model,
    settings: JSON.parse(JSON.stringify(settings)) as Record<string, unknown>,
  };
}

/** Describes a policy for a job: the embedded policy publishes its weights; others need a reference given. */
export async function describePolicy(redis: Redis, run: string, policy: PolicyV1): Promise<PolicyReference> {
  if (policy instanceof EmbeddedPolicy) return publishEmbeddedPolicy(redis, run, policy);
  throw new InvalidInputError(
    `policy ${policy.id} cannot be sent to queue workers: only the embedded policy, chat endpoints (chatPolicyReference) and Tinker samplers (tinkerPolicyReference) can`,
    { field: "policy" },
  );
}

/** Builds the policy a job names, on a worker (a Tinker sampler through the worker's `tinker` samplers). */
export async function loadReferencedPolicy(
  redis: Redis,
  reference: PolicyReference,
  grammar: () => ActionGrammarV1,
  tinker?: TinkerSamplers,
): Promise<PolicyV1> {
  if (reference.kind === "tinker") {
    if (tinker === undefined)
      throw new InvalidInputError("this worker has no Tinker samplers for a tinker policy", {
        field: "policy.kind",
      });
    return tinker.policyOf(reference);
  }
  if (reference.kind === "chat") {
    return createChatPolicy({
      ...(reference.settings as Partial<ChatPolicyOptions>),
      baseURL: reference.baseURL,
      model: reference.model,
      id: reference.id,
      version: reference.version,
    });
  }
  const bytes = await redis.getBuffer(reference.weightsKey);
  if (bytes === null)
    throw new InvalidInputError(`the weights of ${reference.id} ${reference.version} are not in Redis`, {
      field: "policy.weightsKey",
    });
  if (sha256(bytes) !== reference.weightsSha256)
    throw new InvalidInputError(
      `the weights under ${reference.weightsKey} do not have the hash the job names`,
      {
        field: "policy.weightsSha256",
      },
    );
  const directory = await mkdtemp(join(tmpdir(), "hs-queue-policy-"));
  try {
    await writeFile(join(directory, policyFileName), bytes);
    const config = await readPolicyConfig(directory);
    const policy = await createEmbeddedPolicy({
      grammar: grammar(),
      seed: config.seed,
      hiddenSizes: config.hiddenSizes,
      decisionBuckets: config.decisionBuckets,
      id: reference.id,
    });
    await policy.load(directory);
    return policy;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
