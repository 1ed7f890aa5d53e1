import { ApiCallError, CancelledError, HarnessSError, TimeoutError } from "../spec/errors.js";
import type { PolicyView } from "../spec/message.js";
import type { PolicyAction, PolicyActOptions, PolicyV1 } from "../spec/policy.js";
import {
  type ChatPolicyOptions,
  type ChatPolicySettings,
  resolveChatPolicyOptions,
} from "./chat-policy-options.js";
import { ConcurrencyLimiter } from "./concurrency-limiter.js";
import { type ChatCompletionTrace, parseChatCompletion } from "./parse-completion.js";
import { parseRetryAfter } from "./retry-after.js";
import { buildChatCompletionRequest } from "./wire-format.js";

/** Longest response body kept on an `ApiCallError`. */
const errorBodyLimit = 4000;

/** A policy backed by an OpenAI-compatible chat-completions endpoint. */
export interface ChatPolicy extends PolicyV1 {
  /** The validated settings in use (the API key included; do not log them). */
  readonly settings: Readonly<ChatPolicySettings>;
  /** Requests of this instance in flight now. */
  readonly inFlight: number;
  /** Calls of this instance waiting for a request slot now. */
  readonly queued: number;
}

function cut(text: string): string {
  return text.length <= errorBodyLimit ? text : `${text.slice(0, errorBodyLimit)}...`;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
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

/**
 * Creates a policy that asks an OpenAI-compatible chat-completions endpoint (vLLM, SGLang, Ollama,
 * llama.cpp server, OpenAI) for each action. Options are validated here (`InvalidInputError`).
 *
 * Each `act` sends one non-streaming request: the view's messages, its tools when the view asks for
 * native tool calls, the seed, temperature 0 in greedy mode, and `logprobs: true`. Failures: 429, 408,
 * 5xx and network errors are retried with exponential backoff and jitter, honouring `Retry-After`; an
 * attempt that exceeds `timeoutMs` is a retryable `TimeoutError`; other 4xx answers throw a
 * non-retryable `ApiCallError` with status and body; an aborted signal rejects with `CancelledError`.
 * A 2xx body that cannot be read as an action resolves to an action with `malformed` set.
 */
export function createChatPolicy(options: ChatPolicyOptions): ChatPolicy {
  const settings = resolveChatPolicyOptions(options);
  const limiter = new ConcurrencyLimiter(settings.maxConcurrency);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json",
    ...(settings.apiKey === undefined ? {} : { authorization: `Bearer ${settings.apiKey}` }),
    ...settings.headers,
  };

  async function attemptOnce(payload: string, signal: AbortSignal | undefined): Promise<string> {
    if (signal?.aborted) throw new CancelledError("chat completion cancelled", { cause: signal.reason });
    const controller = new AbortController();
    let timedOut = false;
    let rejectOnAbort: (reason: unknown) => void = () => {};
    const aborted = new Promise<never>((_, reject) => {
      rejectOnAbort = reject;
    });
    const abort = () => {
      controller.abort();
      rejectOnAbort(new Error("aborted"));
    };
    const timer = setTimeout(() => {
      timedOut = true;
      abort();
    }, settings.timeoutMs);
    signal?.addEventListener("abort", abort, { once: true });
    try {
      const exchange = (async () => {
        const response = await settings.fetch(settings.endpoint, {
          method: "POST",
          headers,
          body: payload,
          signal: controller.signal,
        });
        return { response, text: await response.text() };
      })();
      exchange.catch(() => {});
      const { response, text } = await Promise.race([exchange, aborted]);
      if (response.ok) return text;
      const retryAfterMs = parseRetryAfter(response.headers, settings.now);
      throw new ApiCallError(
        `chat completions at ${settings.endpoint} answered HTTP ${response.status}: ${cut(text).slice(0, 300)}`,
        {
          status: response.status,
          responseBody: cut(text),
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        },
      );
    } catch (error) {
      if (signal?.aborted) throw new CancelledError("chat completion cancelled", { cause: signal.reason });
      if (timedOut) {
        throw new TimeoutError(
          `chat completion at ${settings.endpoint} took longer than ${settings.timeoutMs} ms (model ${settings.model})`,
        );
      }
      if (HarnessSError.isInstance(error)) throw error;
      const message = `chat completion request to ${settings.endpoint} failed: ${describe(error)}`;
      throw new ApiCallError(message, {}, { cause: error });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
    }
  }

  /** Milliseconds to wait before retry number `retry` (0-based), or undefined to give up. */
  function retryDelay(error: HarnessSError, retry: number): number | undefined {
    const retryAfter = error instanceof ApiCallError ? error.retryAfterMs : undefined;
    if (retryAfter !== undefined) return retryAfter <= settings.maxRetryAfterMs ? retryAfter : undefined;
    const ceiling = Math.min(settings.maxBackoffMs, settings.initialBackoffMs * 2 ** retry);
    return ceiling / 2 + (settings.random() * ceiling) / 2;
  }

  async function act(view: PolicyView, actOptions: PolicyActOptions): Promise<PolicyAction> {
    const { signal } = actOptions;
    const payload = JSON.stringify(buildChatCompletionRequest(view, settings, actOptions));
    for (let attempt = 1; ; attempt += 1) {
      if (signal?.aborted) throw new CancelledError("chat completion cancelled", { cause: signal.reason });
      let failure: HarnessSError;
      const release = await limiter.acquire(signal);
      try {
        const body = await attemptOnce(payload, signal);
        const action = parseChatCompletion(body);
        (action.trace as ChatCompletionTrace).attempts = attempt;
        return action;
      } catch (error) {
        if (!HarnessSError.isInstance(error)) throw error;
        failure = error;
      } finally {
        release();
      }
      if (failure instanceof CancelledError || !failure.isRetryable || attempt > settings.maxRetries) {
        throw afterAttempts(failure, attempt);
      }
      const delayMs = retryDelay(failure, attempt - 1);
      if (delayMs === undefined) throw tooLongToWait(failure as ApiCallError, settings.maxRetryAfterMs);
      settings.onRetry?.({ attempt, delayMs, error: failure });
      await settings.sleep(delayMs, signal);
    }
  }

  return {
    specificationVersion: "v1",
    id: settings.id,
    version: settings.version,
    settings,
    get inFlight() {
      return limiter.active;
    },
    get queued() {
      return limiter.waiting;
    },
    act,
  };
}
