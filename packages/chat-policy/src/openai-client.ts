import OpenAI from "openai";
import type { ChatPolicySettings } from "./chat-policy-options.js";

/** Longest response body kept on an `ApiCallError`. */
export const errorBodyLimit = 4000;

/**
 * Bodies of error responses, keyed by the `Headers` object the SDK puts on its `APIError`. The SDK keeps
 * only the `error` field of a JSON error body, so a vLLM/FastAPI `{"detail": ...}` or an SGLang
 * `{"object":"error","message":...}` body would otherwise reach the caller as "(no body)".
 */
export type ErrorBodies = WeakMap<Headers, string>;

/** The SDK client a chat policy sends through, and the error bodies its fetch kept. */
export interface ChatClient {
  /** The official SDK client, retries off (the policy retries, see the README). */
  readonly sdk: OpenAI;
  /** Error-response bodies by response headers. */
  readonly errorBodies: ErrorBodies;
}

/** Placeholder key for servers that need none; its `Authorization` header is removed before sending. */
const noKey = "no-key";

function keepErrorBodies(settings: ChatPolicySettings, errorBodies: ErrorBodies) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const response = await settings.fetch(url, init ?? {});
    if (response.ok) return response;
    // Read under the SDK's own time limit (this runs inside its fetch call), then hand the SDK a copy.
    const text = await response.text();
    const copy = new Response(text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    errorBodies.set(
      copy.headers,
      text.length <= errorBodyLimit ? text : `${text.slice(0, errorBodyLimit)}...`,
    );
    return copy;
  };
}

/**
 * Builds the official `openai` SDK client for a chat policy: base URL, key, headers, the injected
 * `fetch`, the per-attempt `timeout`. The SDK's own retries are off (`maxRetries: 0`); nothing is read
 * from `OPENAI_BASE_URL`, `OPENAI_ORG_ID` or `OPENAI_PROJECT_ID` (the policy resolved its settings).
 */
export function createChatClient(settings: ChatPolicySettings): ChatClient {
  const errorBodies: ErrorBodies = new WeakMap();
  const headers: Record<string, string | null> = {
    ...(settings.apiKey === undefined ? { authorization: null } : {}),
    ...settings.headers,
  };
  const sdk = new OpenAI({
    baseURL: settings.baseURL,
    apiKey: settings.apiKey ?? noKey,
    organization: null,
    project: null,
    timeout: settings.timeoutMs,
    maxRetries: 0,
    defaultHeaders: headers,
    fetch: keepErrorBodies(settings, errorBodies),
  });
  return { sdk, errorBodies };
}
