import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { InvalidInputError } from "@hs/spec";
import type { PolicyReference, TinkerPolicyReference } from "./rollout-job.js";

/** The files of a tokenizer directory the renderer reads (`ChatRenderer.fromDirectory`); the last is optional. */
const tokenizerFiles = ["tokenizer.json", "tokenizer_config.json", "chat_template.jinja"] as const;

/**
 * SHA-256 over the tokenizer files of a directory (each name, length and bytes; an absent
 * `chat_template.jinja` counts as absent), so that a worker can tell its copy from the trainer's.
 */
export async function tinkerTokenizerDigest(directory: string): Promise<string> {
  const hash = createHash("sha256");
  for (const name of tokenizerFiles) {
    const bytes = await readFile(join(directory, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" && name === "chat_template.jinja") return undefined;
      throw new InvalidInputError(`cannot read the tokenizer file: ${error.message}`, {
        file: join(directory, name),
      });
    });
    hash.update(`${name}\n${bytes === undefined ? "absent" : bytes.length}\n`);
    if (bytes !== undefined) hash.update(bytes);
  }
  return hash.digest("hex");
}

/** What stays the same across a run's Tinker policy versions: server, model, tokenizer, sampling. */
export type TinkerSamplerSettings = Omit<TinkerPolicyReference, "kind" | "id" | "version" | "samplerPath">;

/** Settings for a run's jobs: the tokenizer directory made absolute and its files hashed once. */
export async function tinkerSamplerSettings(options: {
  /** The Tinker API server's root. */
  baseUrl: string;
  /** The base model. */
  baseModel: string;
  /** The tokenizer directory (`--tokenizer`). */
  tokenizerDirectory: string;
  /** Most tokens per step. */
  maxTokens: number;
  /** Sampling temperature (absent: the sampler's default). */
  temperature?: number;
  /** Longest wait for one Tinker call. */
  deadlineMs: number;
}): Promise<TinkerSamplerSettings> {
  const directory = resolve(options.tokenizerDirectory);
  return {
    baseUrl: options.baseUrl,
    baseModel: options.baseModel,
    tokenizer: { directory, sha256: await tinkerTokenizerDigest(directory) },
    maxTokens: options.maxTokens,
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    deadlineMs: options.deadlineMs,
  };
}

/**
 * The reference of a Tinker sampler policy at its current version: the sampler path the learner saved
 * for it (`samplerPath` is `tinker://...`, or the base model before any update). No API key: each
 * worker reads its own.
 */
export function tinkerPolicyReference(
  settings: TinkerSamplerSettings,
  policy: { id: string; version: string; samplerPath: string },
): PolicyReference {
  return {
    kind: "tinker",
    id: policy.id,
    version: policy.version,
    ...settings,
    samplerPath: policy.samplerPath.startsWith("tinker://") ? policy.samplerPath : null,
  };
}
