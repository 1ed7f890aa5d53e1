import { randomUUID } from "node:crypto";
import { CancelledError, InvalidInputError } from "@hs/spec";
import type { z } from "zod";
import {
  type CallDeadline,
  type CallPolicy,
  defaultCallPolicy,
  lowLevelBackoffMs,
  type WaitNotice,
} from "./call-policy.js";
import { type Clock, systemClock } from "./clock.js";
import { TinkerApiError, TinkerConflictError } from "./errors.js";

/** How the transport reaches the server and retries (see `CallPolicy` for the rules). */
export interface TransportOptions extends Partial<CallPolicy> {
  /** Server root, `http://` or `https://`, e.g. `http://127.0.0.1:8000` (`/api/v1` is added). */
  baseUrl: string;
  /** Sent as `X-API-Key` (Tinker needs one; SkyRL does not check it). */
  apiKey?: string;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Time source for backoff and deadlines (default: the wall clock). */
  clock?: Clock;
  /** Jitter source in [0, 1) (default Math.random). */
  random?: () => number;
  /** Called at least every `progressIntervalMs` while a call waits (e.g. a line on stderr). */
  onProgress?: (notice: WaitNotice) => void;
}

/** One HTTP answer. */
export interface HttpAnswer {
  /** HTTP status. */
  status: number;
  /** Parsed JSON body (undefined when it was not JSON). */
  body: unknown;
  /** Raw text of the body. */
  text: string;
  /** The Retry-After (or retry-after-ms) delay in ms, when sent. */
  retryAfterMs: number | undefined;
}

/** Options of one HTTP call. */
export interface SendOptions {
  /** Cancels the call. */
  signal?: AbortSignal;
  /** The logical call's deadline (retries stop there). */
  deadline?: CallDeadline;
  /** Longest body read (default the policy's `maxReplyBytes`). */
  maxReplyBytes?: number;
  /** Time limit of one attempt (default the policy's `attemptTimeoutMs`). */
  attemptTimeoutMs?: number;
  /** Low-level retries (default the policy's `maxRetries`; 0 for one attempt). */
  maxRetries?: number;
}

/** Statuses a call retries with backoff (the SDK's `_base_client._should_retry`, minus 409). */
function isRetriedStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** The answer of an attempt that is retried, kept for the error when the retries run out. */
class RetriedAnswer {
  constructor(readonly answer: HttpAnswer) {}
}

/** A reply longer than what was asked for: never retried. */
export class ReplyTooLargeError extends TinkerApiError {}

/** Refuses a base URL that is not absolute http(s), before any request. */
export function checkBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new InvalidInputError(
      `Tinker URL ${JSON.stringify(baseUrl)} is not a URL (expected http://HOST:PORT)`,
      {
        field: "baseUrl",
      },
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidInputError(
      `Tinker URL ${JSON.stringify(baseUrl)} uses ${url.protocol}; only http: and https: are spoken`,
      { field: "baseUrl" },
    );
  }
  return baseUrl.replace(/\/+$/, "");
}

/**
 * HTTP layer of the Tinker client: `X-API-Key`, one fresh `X-Idempotency-Key` per call reused only by
 * that call's own retries (thinking-machines-lab/tinker `src/tinker/_base_client.py` draws one per
 * request in `_build_request`'s options; `_client.py` names the header), backoff on connection
 * errors, 408, 429 and 5xx (Retry-After honoured), a time limit per attempt and a cap on reply size.
 */
export class TinkerTransport {
  readonly baseUrl: string;
  readonly clock: Clock;
  readonly policy: CallPolicy;
  readonly random: () => number;
  readonly onProgress: ((notice: WaitNotice) => void) | undefined;
  private apiKey: string | undefined;
  private readonly fetchFunction: typeof fetch;
  /** HTTP attempts made (for throughput figures). */
  attempts = 0;
  /** Milliseconds spent waiting on HTTP answers. */
  waitingMs = 0;

  constructor(options: TransportOptions) {
    this.baseUrl = checkBaseUrl(options.baseUrl);
    this.apiKey = options.apiKey;
    this.fetchFunction = options.fetch ?? fetch;
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.onProgress = options.onProgress;
    const policy: CallPolicy = { ...defaultCallPolicy };
    for (const key of Object.keys(defaultCallPolicy) as (keyof CallPolicy)[]) {
      const value = options[key];
      if (value !== undefined) policy[key] = value;
    }
    this.policy = policy;
  }

  /** Replaces the credential sent as `X-API-Key` (the JWT of `/auth/token`). */
  setCredential(credential: string | undefined): void {
    this.apiKey = credential;
  }

  /** A fresh idempotency key for one call. */
  newIdempotencyKey(): string {
    return `hs-tinker-${randomUUID()}`;
  }

  /**
   * One call: a fresh idempotency key, retried on connection errors, 408, 429 and 5xx with that
   * key. Returns the first answer that is not retried (any status).
   */
  async send(
    method: "GET" | "POST",
    endpoint: string,
    body: unknown,
    options: SendOptions = {},
  ): Promise<HttpAnswer> {
    const key = method === "POST" ? this.newIdempotencyKey() : undefined;
    const retries = options.maxRetries ?? this.policy.maxRetries;
    let last: unknown;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (options.signal?.aborted) throw new CancelledError();
      if (attempt > 0) {
        const retryAfter = last instanceof RetriedAnswer ? last.answer.retryAfterMs : undefined;
        const pause = lowLevelBackoffMs(this.policy, attempt, retryAfter, this.random);
        options.deadline?.update(`${describeFailure(last)}, retry ${attempt} of ${retries}`);
        await this.clock.sleep(options.deadline?.pause(pause) ?? pause, options.signal);
      }
      options.deadline?.check();
      try {
        const answer = await this.attempt(method, endpoint, body, key, options);
        if (!isRetriedStatus(answer.status)) return answer;
        last = new RetriedAnswer(answer);
      } catch (error) {
        if (options.signal?.aborted) throw new CancelledError("cancelled", { cause: error });
        if (error instanceof ReplyTooLargeError) throw error;
        last = error;
      }
    }
    throw exhausted(endpoint, last, retries);
  }

  /** Sends a request and parses a 200 answer with `schema`; any other status throws. */
  async call<T>(
    method: "GET" | "POST",
    endpoint: string,
    body: unknown,
    schema: z.ZodType<T>,
    options: SendOptions = {},
  ): Promise<T> {
    const answer = await this.send(method, endpoint, body, options);
    if (answer.status !== 200) throw statusError(endpoint, answer);
    return parseReply(endpoint, answer.body, schema);
  }

  /** One HTTP attempt, without retries (the futures loop decides itself). */
  async attempt(
    method: "GET" | "POST",
    endpoint: string,
    body: unknown,
    idempotencyKey: string | undefined,
    options: SendOptions = {},
  ): Promise<HttpAnswer> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.apiKey !== undefined) headers["X-API-Key"] = this.apiKey;
    if (idempotencyKey !== undefined) headers["X-Idempotency-Key"] = idempotencyKey;
    const binary = body instanceof Uint8Array;
    if (method === "POST") headers["content-type"] = binary ? "application/x-protobuf" : "application/json";
    const remaining = options.deadline?.remainingMs() ?? Number.POSITIVE_INFINITY;
    // AbortSignal.timeout takes whole milliseconds; the deadline's remainder is fractional
    const limit = Math.max(
      1,
      Math.ceil(Math.min(options.attemptTimeoutMs ?? this.policy.attemptTimeoutMs, remaining)),
    );
    const timeout = AbortSignal.timeout(limit);
    const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
    const started = this.clock.now();
    this.attempts++;
    try {
      const response = await this.fetchFunction(`${this.baseUrl}/api/v1${endpoint}`, {
        method,
        headers,
        ...(method === "POST" ? { body: binary ? body : JSON.stringify(body) } : {}),
        signal,
      });
      const text = await readCapped(response, endpoint, options.maxReplyBytes ?? this.policy.maxReplyBytes);
      return {
        status: response.status,
        body: parseJson(text),
        text,
        retryAfterMs: retryAfterMilliseconds(response.headers),
      };
    } finally {
      this.waitingMs += this.clock.now() - started;
    }
  }
}

async function readCapped(response: Response, endpoint: string, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(endpoint, declared, maxBytes);
  }
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge(endpoint, total, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function tooLarge(endpoint: string, bytes: number, maxBytes: number): ReplyTooLargeError {
  return new ReplyTooLargeError(
    `${endpoint}: the reply has more than ${maxBytes} bytes (${bytes} read), more than was asked for`,
    { endpoint },
  );
}

function retryAfterMilliseconds(headers: Headers): number | undefined {
  const milliseconds = Number(headers.get("retry-after-ms") ?? Number.NaN);
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const seconds = Number(headers.get("retry-after") ?? Number.NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A short description of a failed attempt for progress lines and errors. */
export function describeFailure(failure: unknown): string {
  if (failure instanceof RetriedAnswer) return `HTTP ${failure.answer.status}`;
  return failure instanceof Error ? failure.message : String(failure);
}

function exhausted(endpoint: string, last: unknown, retries: number): TinkerApiError {
  if (last instanceof RetriedAnswer) {
    return new TinkerApiError(
      `${endpoint}: HTTP ${last.answer.status} after ${retries} retries`,
      { status: last.answer.status, endpoint, responseBody: last.answer.text.slice(0, 2000) },
      { isRetryable: true },
    );
  }
  return new TinkerApiError(
    `${endpoint}: no answer after ${retries} retries (${describeFailure(last)})`,
    { endpoint },
    { cause: last, isRetryable: true },
  );
}

/** The detail of an error body: FastAPI's string or list of `{loc, msg}` (422). */
export function detailText(body: unknown): string | undefined {
  const detail = (body as { detail?: unknown } | undefined)?.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((item) => {
        const entry = item as { loc?: unknown; msg?: unknown };
        const where = Array.isArray(entry.loc) ? entry.loc.join(".") : "";
        return `${where}${where === "" ? "" : ": "}${String(entry.msg ?? JSON.stringify(item))}`;
      })
      .join("; ");
  }
  return undefined;
}

/** The error for a non-200 answer that is not retried. */
export function statusError(endpoint: string, answer: HttpAnswer): TinkerApiError {
  const text = detailText(answer.body) ?? answer.text.slice(0, 300);
  const details = { status: answer.status, endpoint, responseBody: answer.text.slice(0, 2000) };
  if (answer.status === 409) {
    return new TinkerConflictError(`${endpoint}: HTTP 409 ${text}`, details);
  }
  return new TinkerApiError(`${endpoint}: HTTP ${answer.status} ${text}`, details);
}

/** Parses a reply body with its schema; a mismatch names the endpoint and the field. */
export function parseReply<T>(endpoint: string, body: unknown, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue === undefined ? undefined : issue.path.map(String).join(".");
  throw new InvalidInputError(
    `reply of ${endpoint} does not match its schema${field ? ` at ${field}` : ""}: ${issue?.message ?? "invalid"}`,
    {
      ...(field === undefined || field === "" ? {} : { field }),
    },
  );
}
