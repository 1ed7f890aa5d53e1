import {
  ApiCallError,
  CancelledError,
  HarnessSError,
  type PolicyAction,
  type PolicyActOptions,
  type PolicyV1,
  type PolicyView,
  TimeoutError,
} from "@hs/spec";
import {
  type ChatPolicyOptions,
  type ChatPolicySettings,
  resolveChatPolicyOptions,
} from "./chat-policy-options.js";
import { type ChatClient, createChatClient } from "./openai-client.js";
import { type ChatCompletionTrace, parseChatCompletion } from "./parse-completion.js";
import { createRequestSlots, type RequestSlots } from "./request-slots.js";
import { sendAttempt } from "./send-attempt.js";
import { buildChatCompletionRequest } from "./wire-format.js";

/** Counts of one policy instance since it was created, for a run's closing summary. */
export interface ChatPolicyStats {
  /** `act` calls that sent at least one request. */
  calls: number;
  /** Calls that resolved to an action (malformed ones included). */
  succeeded: number;
  /** Calls that rejected after their last attempt (each also reported once through `onError`). */
  failed: number;
  /** Attempts that failed, retried or not (each reported once through `onRetry` or `onError`). */
  failedAttempts: number;
  /** Retries made (each reported once through `onRetry`). */
  retries: number;
  /** Calls cancelled through their signal. */
  cancelled: number;
}

/** A policy backed by an OpenAI-compatible chat-completions endpoint. */
export interface ChatPolicy extends PolicyV1 {
  /** The validated settings in use (the API key included; do not log them). */
  readonly settings: Readonly<ChatPolicySettings>;
  /** Requests of this instance in flight now. */
  readonly inFlight: number;
  /** Calls of this instance waiting for a request slot now. */
  readonly queued: number;
  /** Counts since creation (a copy). */
  readonly stats: Readonly<ChatPolicyStats>;
}

/** A copy of an `ApiCallError` with another message. */
function withMessage(error: ApiCallError, message: string): ApiCallError {
  return new ApiCallError(
    message,
    {
      ...(error.status === undefined ? {} : { status: error.status }),
      ...(error.responseBody === undefined ? {} : { responseBody: error.responseBody }),
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    },
    { cause: error.cause, isRetryable: error.isRetryable },
  );
}

/** The same failure, with the number of attempts made added to its message. */
function afterAttempts(error: HarnessSError, attempts: number): HarnessSError {
  if (attempts <= 1) return error;
  const suffix = ` (gave up after ${attempts} attempts)`;
  if (error instanceof ApiCallError) return withMessage(error, `${error.message}${suffix}`);
  if (error instanceof TimeoutError)
    return new TimeoutError(`${error.message}${suffix}`, { cause: error.cause });
  return error;
}

/** The failure, explaining that the server's `Retry-After` is longer than the policy will wait. */
function tooLongToWait(error: ApiCallError, maxRetryAfterMs: number): ApiCallError {
  return withMessage(
    error,
    `${error.message} (the server asked to wait ${error.retryAfterMs} ms, more than maxRetryAfterMs ${maxRetryAfterMs})`,
  );
}

/** Milliseconds to wait before retry number `retry` (0-based), or undefined when the wait is too long. */
function retryDelay(settings: ChatPolicySettings, error: HarnessSError, retry: number): number | undefined {
  const retryAfter = error instanceof ApiCallError ? error.retryAfterMs : undefined;
  if (retryAfter !== undefined) return retryAfter <= settings.maxRetryAfterMs ? retryAfter : undefined;
  const ceiling = Math.min(settings.maxBackoffMs, settings.initialBackoffMs * 2 ** retry);
  return ceiling / 2 + (settings.random() * ceiling) / 2;
}

/** What to do after a failed attempt: wait and retry, or reject with an error. */
function nextStep(
  settings: ChatPolicySettings,
  failure: HarnessSError,
  attempt: number,
): { delayMs: number } | { error: HarnessSError } {
  if (!failure.isRetryable || attempt > settings.maxRetries)
    return { error: afterAttempts(failure, attempt) };
  const delayMs = retryDelay(settings, failure, attempt - 1);
  if (delayMs === undefined)
    return { error: tooLongToWait(failure as ApiCallError, settings.maxRetryAfterMs) };
  return { delayMs };
}

/** What one policy instance shares across its calls. */
interface CallContext {
  settings: ChatPolicySettings;
  client: ChatClient;
  slots: RequestSlots;
  stats: ChatPolicyStats;
}

/** Sends one call, retrying as `nextStep` decides; reports each failed attempt once. */
async function callWithRetries(
  { settings, client, slots, stats }: CallContext,
  body: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<PolicyAction> {
  for (let attempt = 1; ; attempt += 1) {
    let failure: HarnessSError;
    try {
      const text = await slots.run(() => sendAttempt(client, settings, body, signal), signal);
      const action = parseChatCompletion(text);
      (action.trace as ChatCompletionTrace).attempts = attempt;
      stats.succeeded += 1;
      return action;
    } catch (error) {
      if (!HarnessSError.isInstance(error)) throw error;
      failure = error;
    }
    if (failure instanceof CancelledError || signal?.aborted) {
      stats.cancelled += 1;
      throw new CancelledError("chat completion cancelled", { cause: signal?.reason });
    }
    stats.failedAttempts += 1;
    const step = nextStep(settings, failure, attempt);
    if ("error" in step) {
      stats.failed += 1;
      settings.onError?.({ attempts: attempt, error: step.error });
      throw step.error;
    }
    stats.retries += 1;
    settings.onRetry?.({ attempt, delayMs: step.delayMs, error: failure });
    try {
      await settings.sleep(step.delayMs, signal);
    } catch (error) {
      if (error instanceof CancelledError) stats.cancelled += 1;
      throw error;
    }
  }
}

/**
 * Creates a policy that asks an OpenAI-compatible chat-completions endpoint (vLLM, SGLang, Ollama,
 * llama.cpp server, OpenAI) for each action, through the official `openai` SDK. Options are validated
 * here (`InvalidInputError`).
 *
 * Each `act` sends one non-streaming request: the view's messages, its tools when the view asks for
 * native tool calls, the seed, temperature 0 in greedy mode, and `logprobs: true`. Failures: 429, 408,
 * 5xx, network errors and timeouts are retried with exponential backoff and jitter, honouring
 * `Retry-After`; an attempt that exceeds `timeoutMs` is a retryable `TimeoutError`; other 4xx answers
 * throw a non-retryable `ApiCallError` with status and body; an aborted signal rejects with
 * `CancelledError`. A 2xx body that cannot be read as an action resolves to an action with `malformed`
 * set. Each failed attempt is reported once, through `onRetry` (retried) or `onError` (final).
 */
export function createChatPolicy(options: ChatPolicyOptions): ChatPolicy {
  const settings = resolveChatPolicyOptions(options);
  const context: CallContext = {
    settings,
    client: createChatClient(settings),
    slots: createRequestSlots(settings.maxConcurrency),
    stats: { calls: 0, succeeded: 0, failed: 0, failedAttempts: 0, retries: 0, cancelled: 0 },
  };
  const { slots, stats } = context;

  async function act(view: PolicyView, actOptions: PolicyActOptions): Promise<PolicyAction> {
    const { signal } = actOptions;
    const body = buildChatCompletionRequest(view, settings, actOptions);
    if (signal?.aborted) throw new CancelledError("chat completion cancelled", { cause: signal.reason });
    stats.calls += 1;
    return callWithRetries(context, body, signal);
  }

  return {
    specificationVersion: "v1",
    id: settings.id,
    version: settings.version,
    settings,
    get inFlight() {
      return slots.active;
    },
    get queued() {
      return slots.waiting;
    },
    get stats() {
      return { ...stats };
    },
    act,
  };
}
