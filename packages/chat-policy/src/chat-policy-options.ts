import { describeZodIssue } from "@hs/harness";
import { type HarnessSError, InvalidInputError } from "@hs/spec";
import { z } from "zod";
import { abortableSleep, type Sleep } from "./abortable-sleep.js";

/** The subset of `fetch` the chat policy uses. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** One retry the chat policy is about to make, reported through `onRetry`. */
export interface ChatRetryNotice {
  /** 1-based number of the attempt that failed. */
  attempt: number;
  /** Milliseconds the policy waits before the next attempt. */
  delayMs: number;
  /** Why the attempt failed (an `ApiCallError` or `TimeoutError`). */
  error: Error;
}

/** A call that failed for good (no retry left, or a failure not worth retrying), reported through `onError`. */
export interface ChatFailureNotice {
  /** HTTP attempts the call made, the failed last one included. */
  attempts: number;
  /** The error the call rejects with (an `ApiCallError` or `TimeoutError`). */
  error: HarnessSError;
}

const functionSchema = <T>(what: string) =>
  z.custom<T>((value) => typeof value === "function", { message: `expected ${what} (a function)` });

/** Options of `createChatPolicy`, validated at construction. */
export const chatPolicyOptionsSchema = z.strictObject({
  /**
   * Base URL of the OpenAI-compatible API, up to and including `/v1`, e.g. `http://127.0.0.1:8000/v1`.
   * `/chat/completions` is appended. Defaults to the `HS_OPENAI_BASE_URL` environment variable.
   */
  baseURL: z
    .url({ protocol: /^https?$/, message: "expected an http(s) URL such as http://127.0.0.1:8000/v1" })
    .optional(),
  /** Model name as the server knows it (vLLM `--served-model-name`, an Ollama tag, an OpenAI model). */
  model: z.string().min(1, "expected a model name"),
  /** Bearer token. Defaults to `HS_OPENAI_API_KEY`, then `OPENAI_API_KEY`; none is sent when all are unset. */
  apiKey: z.string().min(1).optional(),
  /** Policy id recorded on trajectories. Default `openai-compatible:<model>`. */
  id: z.string().min(1).optional(),
  /** Version of the weights the server holds, recorded on trajectories. Default: the model name. */
  version: z.string().min(1).optional(),
  /**
   * Time limit of one HTTP attempt (request and whole body), in milliseconds. Default 120000. The SDK's
   * `timeout` covers the wait for the response headers; the policy's own timer covers the body after.
   */
  timeoutMs: z.number().int().positive().default(120_000),
  /** Retries after a retryable failure (429, 408, 5xx, network error, timeout). Default 4; 0 makes one attempt. */
  maxRetries: z.number().int().nonnegative().default(4),
  /** First backoff ceiling in milliseconds; doubles per retry, with jitter. Default 500. */
  initialBackoffMs: z.number().nonnegative().default(500),
  /** Largest backoff ceiling in milliseconds. Default 20000. */
  maxBackoffMs: z.number().nonnegative().default(20_000),
  /** Longest `Retry-After` wait honoured; a longer one fails the call at once. Default 60000. */
  maxRetryAfterMs: z.number().nonnegative().default(60_000),
  /** Requests of this policy instance in flight at once, across all `act` calls. Default 8. */
  maxConcurrency: z.number().int().positive().default(8),
  /** Sampling temperature in `sample` mode (`greedy` mode always sends 0). Default 1. */
  temperature: z.number().min(0).max(2).default(1),
  /** Nucleus sampling in `sample` mode; not sent when unset. */
  topP: z.number().gt(0).max(1).optional(),
  /** Generation limit in tokens; not sent when unset. */
  maxTokens: z.number().int().positive().optional(),
  /** Request field that carries `maxTokens`: `max_tokens` (default, widest support) or `max_completion_tokens`. */
  maxTokensField: z.enum(["max_tokens", "max_completion_tokens"]).default("max_tokens"),
  /** Ask for per-token log-probabilities (`logprobs: true`). Default true. */
  logprobs: z.boolean().default(true),
  /** Alternatives per position (`top_logprobs`, 0..20); not sent when unset. */
  topLogprobs: z.number().int().min(0).max(20).optional(),
  /** Ask vLLM (>= 0.10.2) for generated token ids (`return_token_ids: true`). Other servers may reject it. */
  returnTokenIds: z.boolean().default(false),
  /** Extra request fields merged last into every body, e.g. `{ top_k: 20 }` or `{ return_tokens_as_token_ids: true }`. */
  extraBody: z.record(z.string(), z.unknown()).optional(),
  /** Extra HTTP headers sent with every request. */
  headers: z.record(z.string(), z.string()).optional(),
  /** `fetch` to use (tests, proxies). Default: the global `fetch`. */
  fetch: functionSchema<FetchLike>("fetch").optional(),
  /** Waits between retries. Default: a `setTimeout` sleep that cancellation interrupts. */
  sleep: functionSchema<Sleep>("sleep").optional(),
  /** Random numbers in [0, 1) for backoff jitter. Default `Math.random`. */
  random: functionSchema<() => number>("random").optional(),
  /** Clock in epoch milliseconds, for `Retry-After` dates. Default `Date.now`. */
  now: functionSchema<() => number>("now").optional(),
  /** Called once for each failed attempt that is retried, before the wait (e.g. to print it on stderr). */
  onRetry: functionSchema<(notice: ChatRetryNotice) => void>("onRetry").optional(),
  /**
   * Called once when a call fails for good, just before it rejects; the attempts it reported through
   * `onRetry` are not reported again. Not called for cancellation or invalid input.
   */
  onError: functionSchema<(notice: ChatFailureNotice) => void>("onError").optional(),
  /** Environment read for defaults. Default `process.env`. */
  env: z.record(z.string(), z.string().optional()).optional(),
});

/** Options of `createChatPolicy`. */
export type ChatPolicyOptions = z.input<typeof chatPolicyOptionsSchema>;

/** Options after validation and environment defaults. */
export interface ChatPolicySettings
  extends Omit<
    z.output<typeof chatPolicyOptionsSchema>,
    "baseURL" | "apiKey" | "id" | "version" | "fetch" | "sleep" | "random" | "now" | "env"
  > {
  /** Base URL without a trailing slash. */
  baseURL: string;
  /** The chat-completions URL requests go to. */
  endpoint: string;
  /** Bearer token, when one is configured. */
  apiKey: string | undefined;
  /** Policy id. */
  id: string;
  /** Weights version. */
  version: string;
  /** `fetch` in use. */
  fetch: FetchLike;
  /** Sleep in use. */
  sleep: Sleep;
  /** Jitter source in use. */
  random: () => number;
  /** Clock in use. */
  now: () => number;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** Validates chat-policy options and fills defaults from the environment; throws `InvalidInputError`. */
export function resolveChatPolicyOptions(options: ChatPolicyOptions): ChatPolicySettings {
  const parsed = chatPolicyOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const { field, message } = describeZodIssue(parsed.error);
    throw new InvalidInputError(`invalid chat policy options: ${message}`, { field });
  }
  const { baseURL, apiKey, id, version, fetch, sleep, random, now, env, ...rest } = parsed.data;
  const environment = env ?? process.env;
  const resolvedBaseURL = baseURL ?? nonEmpty(environment.HS_OPENAI_BASE_URL);
  if (resolvedBaseURL === undefined) {
    throw new InvalidInputError(
      "no chat-completions base URL: pass baseURL (e.g. http://127.0.0.1:8000/v1) or set HS_OPENAI_BASE_URL",
      { field: "baseURL" },
    );
  }
  if (baseURL === undefined && !z.url({ protocol: /^https?$/ }).safeParse(resolvedBaseURL).success) {
    throw new InvalidInputError(`HS_OPENAI_BASE_URL is not an http(s) URL: "${resolvedBaseURL}"`, {
      field: "baseURL",
    });
  }
  const globalFetch: FetchLike | undefined =
    typeof globalThis.fetch === "function" ? globalThis.fetch : undefined;
  const resolvedFetch = fetch ?? globalFetch;
  if (resolvedFetch === undefined) {
    throw new InvalidInputError("no fetch available: pass options.fetch", { field: "fetch" });
  }
  const trimmedBaseURL = resolvedBaseURL.replace(/\/+$/, "");
  return {
    ...rest,
    baseURL: trimmedBaseURL,
    endpoint: `${trimmedBaseURL}/chat/completions`,
    apiKey: apiKey ?? nonEmpty(environment.HS_OPENAI_API_KEY) ?? nonEmpty(environment.OPENAI_API_KEY),
    id: id ?? `openai-compatible:${rest.model}`,
    version: version ?? rest.model,
    fetch: resolvedFetch,
    sleep: sleep ?? abortableSleep,
    random: random ?? Math.random,
    now: now ?? Date.now,
  };
}
