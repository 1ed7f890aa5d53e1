import type { PolicyV1 } from "@hs/spec";
import { ChatRenderer, TinkerApiError, TinkerClient, TinkerSamplerPolicy, type WaitNotice } from "@hs/tinker";
import { UnrecoverableError } from "bullmq";
import type { TinkerPolicyReference } from "./rollout-job.js";
import { tinkerTokenizerDigest } from "./tinker-policy-reference.js";

/** Options of a worker's Tinker samplers. */
export interface TinkerSamplersOptions {
  /** Sent as `X-API-Key` (a worker passes its own `TINKER_API_KEY`; jobs never carry one). */
  apiKey?: string;
  /** Told while a Tinker call waits (at least every 10 s). */
  onProgress?: (notice: WaitNotice) => void;
}

/** A promise that forgets itself from `map` when it rejects, so that the next job tries again. */
function remembered<T>(map: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  const known = map.get(key);
  if (known !== undefined) return known;
  const made = make();
  made.catch(() => {
    if (map.get(key) === made) map.delete(key);
  });
  map.set(key, made);
  return made;
}

/**
 * The Tinker sampler policies of a worker: one client (session and heartbeat) per server, one renderer
 * per tokenizer, and one sampler policy per sampler path, each made with the trainer's own client code
 * (`@hs/tinker`). A newer version of a model drops the samplers of the older ones (a job of an older
 * version, should one come, loads its own again).
 */
export class TinkerSamplers {
  private readonly options: TinkerSamplersOptions;
  private readonly clients = new Map<string, Promise<TinkerClient>>();
  private readonly renderers = new Map<string, Promise<ChatRenderer>>();
  /** Per server and model, the sampler of the newest path seen (its reference as key). */
  private readonly newest = new Map<string, { key: string; policy: Promise<PolicyV1> }>();

  constructor(options: TinkerSamplersOptions = {}) {
    this.options = options;
  }

  /** Sampler paths loaded so far (each once, again only after a newer one replaced it). */
  loads = 0;

  /** The sampler policy a job names, its sampling session open (a path the server lacks fails here). */
  policyOf(reference: TinkerPolicyReference): Promise<PolicyV1> {
    const model = JSON.stringify([reference.baseUrl, reference.deadlineMs, reference.baseModel]);
    const key = JSON.stringify(reference);
    const current = this.newest.get(model);
    if (current?.key === key) return current.policy;
    const policy = this.load(reference);
    const entry = { key, policy };
    this.newest.set(model, entry);
    policy.catch(() => {
      if (this.newest.get(model) === entry) this.newest.delete(model);
    });
    return policy;
  }

  private async load(reference: TinkerPolicyReference): Promise<PolicyV1> {
    const renderer = await this.rendererOf(reference.tokenizer);
    const client = await this.clientOf(reference);
    const policy = new TinkerSamplerPolicy({
      client,
      renderer,
      baseModel: reference.baseModel,
      maxTokens: reference.maxTokens,
      ...(reference.temperature === undefined ? {} : { temperature: reference.temperature }),
    });
    if (reference.samplerPath !== null) policy.useSampler(reference.samplerPath, reference.version);
    try {
      await policy.open();
    } catch (error) {
      throw refusedSampler(reference, error);
    }
    this.loads++;
    return policy;
  }

  private clientOf(reference: TinkerPolicyReference): Promise<TinkerClient> {
    const key = JSON.stringify([reference.baseUrl, reference.deadlineMs]);
    return remembered(this.clients, key, async () => {
      const client = new TinkerClient({
        baseUrl: reference.baseUrl,
        deadlineMs: reference.deadlineMs,
        ...(this.options.apiKey === undefined ? {} : { apiKey: this.options.apiKey }),
        ...(this.options.onProgress === undefined ? {} : { onProgress: this.options.onProgress }),
      });
      await client.createSession(["harness-s", "worker"]);
      return client;
    });
  }

  private rendererOf(tokenizer: TinkerPolicyReference["tokenizer"]): Promise<ChatRenderer> {
    return remembered(this.renderers, JSON.stringify(tokenizer), async () => {
      const digest = await tinkerTokenizerDigest(tokenizer.directory);
      if (digest !== tokenizer.sha256)
        throw new UnrecoverableError(
          `the tokenizer files in ${tokenizer.directory} on this worker differ from the trainer's (SHA-256 ${digest.slice(0, 12)}, the job names ${tokenizer.sha256.slice(0, 12)})`,
        );
      return ChatRenderer.fromDirectory(tokenizer.directory);
    });
  }

  /** Ends every session's heartbeat. */
  async close(): Promise<void> {
    const clients = await Promise.allSettled(this.clients.values());
    this.clients.clear();
    this.newest.clear();
    for (const client of clients) if (client.status === "fulfilled") await client.value.close();
  }
}

/**
 * Why a sampler could not be opened. A server that answers 4xx for these weights will not have them on
 * a retry (the trainer saves them before it enqueues a job naming them): the job fails for good.
 */
function refusedSampler(reference: TinkerPolicyReference, error: unknown): Error {
  const weights = reference.samplerPath ?? `the base model ${reference.baseModel}`;
  const reason = error instanceof Error ? error.message : String(error);
  const message = `the Tinker server ${reference.baseUrl} refused sampler ${weights} of ${reference.id} ${reference.version}: ${reason}`;
  const refused =
    error instanceof TinkerApiError &&
    error.status !== undefined &&
    error.status >= 400 &&
    error.status < 500;
  return refused ? new UnrecoverableError(message) : new Error(message, { cause: error });
}
