import { ApiCallError, CancelledError, HarnessSError, TimeoutError } from "@hs/spec";
import type OpenAI from "openai";
import { APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import type { ChatPolicySettings } from "./chat-policy-options.js";
import type { ChatClient } from "./openai-client.js";
import { parseRetryAfter } from "./retry-after.js";

type AttemptSettings = Pick<ChatPolicySettings, "endpoint" | "model" | "timeoutMs" | "now">;

/** The messages of an error and of its causes, joined, without repeats. */
export function describeCauses(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    const text = current instanceof Error ? current.message : String(current);
    if (text !== "" && !parts.includes(text)) parts.push(text);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(": ");
}

function cancelled(signal: AbortSignal | undefined): CancelledError {
  return new CancelledError("chat completion cancelled", { cause: signal?.reason });
}

function timedOut(settings: AttemptSettings, phase: string): TimeoutError {
  return new TimeoutError(
    `chat completion at ${settings.endpoint} took longer than the time limit timeoutMs = ${settings.timeoutMs} ms ${phase} (model ${settings.model})`,
  );
}

/** Maps what the SDK threw to the harness error a caller sees. */
function toHarnessError(
  error: unknown,
  client: ChatClient,
  settings: AttemptSettings,
  signal: AbortSignal | undefined,
): HarnessSError {
  if (signal?.aborted || error instanceof APIUserAbortError) return cancelled(signal);
  if (HarnessSError.isInstance(error)) return error;
  if (error instanceof APIConnectionTimeoutError)
    return timedOut(settings, "waiting for the response headers");
  if (error instanceof APIError && error.status !== undefined && error.headers !== undefined) {
    const body = client.errorBodies.get(error.headers) ?? error.message;
    const retryAfterMs = parseRetryAfter(error.headers, settings.now);
    return new ApiCallError(
      `chat completions at ${settings.endpoint} answered HTTP ${error.status}: ${body.slice(0, 300)}`,
      { status: error.status, responseBody: body, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) },
      { cause: error },
    );
  }
  const message = `chat completion request to ${settings.endpoint} failed: ${describeCauses(error)}`;
  return new ApiCallError(message, {}, { cause: error });
}

/**
 * Reads a 2xx body within what is left of the attempt's time limit. The SDK's `timeout` stops at the
 * response headers (openai-node src/client.ts `fetchWithTimeout` clears its timer when `fetch`
 * resolves), so a server that sends headers and then stalls would otherwise hold the call forever.
 */
async function readBodyWithin(
  response: Response,
  remainingMs: number,
  abortAttempt: () => void,
  settings: AttemptSettings,
): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        abortAttempt();
        reject(timedOut(settings, "reading the response body"));
      },
      Math.max(0, remainingMs),
    );
  });
  try {
    return await Promise.race([response.text(), limit]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sends one chat-completions request through the SDK (its `timeout`, `signal` and `fetch`; its retries
 * off) and returns the raw 2xx body, so that a reply that is not a valid completion can become a
 * malformed action. Rejects with `ApiCallError`, `TimeoutError` or `CancelledError`.
 */
export async function sendAttempt(
  client: ChatClient,
  settings: AttemptSettings,
  body: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<string> {
  if (signal?.aborted) throw cancelled(signal);
  const attempt = new AbortController();
  const forward = () => attempt.abort(signal?.reason);
  signal?.addEventListener("abort", forward, { once: true });
  const started = performance.now();
  try {
    const request = client.sdk.chat.completions.create(
      body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
      {
        signal: attempt.signal,
        timeout: settings.timeoutMs,
        maxRetries: 0,
      },
    );
    const response = await request.asResponse();
    const remainingMs = settings.timeoutMs - (performance.now() - started);
    return await readBodyWithin(response, remainingMs, () => attempt.abort(), settings);
  } catch (error) {
    throw toHarnessError(error, client, settings, signal);
  } finally {
    signal?.removeEventListener("abort", forward);
  }
}
