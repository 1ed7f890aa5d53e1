import { randomUUID } from "node:crypto";
import { CancelledError, InvalidInputError } from "@hs/harness";
import type { z } from "zod";
import { type Clock, systemClock } from "./clock.js";
import { TinkerApiError, TinkerConflictError } from "./errors.js";

/** How the transport reaches the server and retries. */
export interface TransportOptions {
  /** Server root, e.g. `http://127.0.0.1:8000` (the `/api/v1` prefix is added). */
  baseUrl: string;
  /** Sent as `X-API-Key` (Tinker needs one; SkyRL does not check it). */
  apiKey?: string;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Time source for backoff (default: the wall clock). */
  clock?: Clock;
  /** Attempts after the first for one HTTP call (default 6). */
  maxRetries?: number;
  /** First backoff in ms, doubled per attempt (default 200). */
  initialBackoffMs?: number;
  /** Longest backoff in ms (default 10,000). */
  maxBackoffMs?: number;
  /** Abort one HTTP attempt after this many ms (default 120,000). */
  attemptTimeoutMs?: number;
}

/** One HTTP answer, after retries of connection errors, 429 and 5xx. */
export interface HttpAnswer {
  /** HTTP status. */
  status: number;
  /** Parsed JSON body (undefined when it was not JSON). */
  body: unknown;
  /** Raw text of the body. */
  text: string;
  /** The Retry-After header, when sent. */
  retryAfter: string | null;
}

/** Statuses a call retries with backoff (the SDK's `_base_client` rule, minus 409 and 408). */
function isBackoffStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * HTTP layer of the Tinker client: the `X-API-Key` header, one `X-Idempotency-Key` per logical
 * request reused on every retry (thinking-machines-lab/tinker `src/tinker/_base_client.py` keeps the
 * key across retries; `_client.py` names the header), exponential backoff on connection errors, 429
 * and 5xx (honouring Retry-After).
 */
export class TinkerTransport {
  readonly baseUrl: string;
  readonly clock: Clock;
  private readonly apiKey: string | undefined;
  private readonly fetchFunction: typeof fetch;
  private readonly maxRetries: number;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly attemptTimeoutMs: number;
  /** HTTP attempts made (for throughput figures). */
  attempts = 0;
  /** Milliseconds spent waiting on HTTP answers. */
  waitingMs = 0;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.apiKey = options.apiKey;
    this.fetchFunction = options.fetch ?? fetch;
    this.clock = options.clock ?? systemClock;
    this.maxRetries = options.maxRetries ?? 6;
    this.initialBackoffMs = options.initialBackoffMs ?? 200;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? 120_000;
  }

  /** A fresh idempotency key for one logical request. */
  newIdempotencyKey(): string {
    return `hs-tinker-${randomUUID()}`;
  }

  /** Backoff before retry `attempt` (1-based). */
  backoffMs(attempt: number, retryAfterMs: number | undefined): number {
    const exponential = Math.min(this.maxBackoffMs, this.initialBackoffMs * 2 ** (attempt - 1));
    return retryAfterMs === undefined ? exponential : Math.min(this.maxBackoffMs, retryAfterMs);
  }

  /**
   * Sends one logical request; retries connection errors, 429 and 5xx with the same idempotency key.
   * Returns the first answer that is not retried (any status).
   */
  async send(
    method: "GET" | "POST",
    endpoint: string,
    body: unknown,
    options: { idempotencyKey?: string; signal?: AbortSignal } = {},
  ): Promise<HttpAnswer> {
    const key = method === "POST" ? (options.idempotencyKey ?? this.newIdempotencyKey()) : undefined;
    let lastError: unknown;
    for (let attempt = 0; attempt <= this.maxRetries; attempt++) {
      if (options.signal?.aborted) throw new CancelledError();
      if (attempt > 0) {
        const retryAfter = lastError instanceof RetryAfter ? lastError.milliseconds : undefined;
        await this.clock.sleep(this.backoffMs(attempt, retryAfter), options.signal);
      }
      try {
        const answer = await this.attempt(method, endpoint, body, key, options.signal);
        if (!isBackoffStatus(answer.status)) return answer;
        lastError = new RetryAfter(answer, retryAfterMilliseconds(answer));
      } catch (error) {
        if (options.signal?.aborted) throw new CancelledError("cancelled", { cause: error });
        lastError = error;
      }
    }
    throw exhausted(endpoint, lastError, this.maxRetries);
  }

  /** Sends a request and parses a 200 answer with `schema`; any other status throws. */
  async call<T>(
    method: "GET" | "POST",
    endpoint: string,
    body: unknown,
    schema: z.ZodType<T>,
    options: { idempotencyKey?: string; signal?: AbortSignal } = {},
  ): Promise<T> {
    const answer = await this.send(method, endpoint, body, options);
    if (answer.status !== 200) throw statusError(endpoint, answer);
    return parseReply(endpoint, answer.body, schema);
  }

  private async attempt(
    method: "GET" | "POST",
    endpoint: string,
    body: unknown,
    idempotencyKey: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<HttpAnswer> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.apiKey !== undefined) headers["X-API-Key"] = this.apiKey;
    if (idempotencyKey !== undefined) headers["X-Idempotency-Key"] = idempotencyKey;
    if (method === "POST") headers["content-type"] = "application/json";
    const timeout = AbortSignal.timeout(this.attemptTimeoutMs);
    const started = this.clock.now();
    this.attempts++;
    try {
      const response = await this.fetchFunction(`${this.baseUrl}/api/v1${endpoint}`, {
        method,
        headers,
        ...(method === "POST" ? { body: JSON.stringify(body) } : {}),
        signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
      });
      const text = await response.text();
      return {
        status: response.status,
        body: parseJson(text),
        text,
        retryAfter: response.headers.get("retry-after"),
      };
    } finally {
      this.waitingMs += this.clock.now() - started;
    }
  }
}

class RetryAfter {
  constructor(
    readonly answer: HttpAnswer,
    readonly milliseconds: number | undefined,
  ) {}
}

function retryAfterMilliseconds(answer: HttpAnswer): number | undefined {
  const header = answer.retryAfter;
  if (header === null) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function exhausted(endpoint: string, lastError: unknown, retries: number): TinkerApiError {
  if (lastError instanceof RetryAfter) {
    return new TinkerApiError(
      `${endpoint}: HTTP ${lastError.answer.status} after ${retries} retries`,
      { status: lastError.answer.status, endpoint, responseBody: lastError.answer.text.slice(0, 2000) },
      { isRetryable: true },
    );
  }
  const reason = lastError instanceof Error ? lastError.message : String(lastError);
  return new TinkerApiError(
    `${endpoint}: no answer after ${retries} retries (${reason})`,
    { endpoint },
    { cause: lastError, isRetryable: true },
  );
}

/** The error for a non-200 answer that is not retried. */
export function statusError(endpoint: string, answer: HttpAnswer): TinkerApiError {
  const detail = (answer.body as { detail?: unknown } | undefined)?.detail;
  const text = typeof detail === "string" ? detail : answer.text.slice(0, 300);
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
    `reply of ${endpoint} does not match its schema: ${issue?.message ?? "invalid"}`,
    {
      ...(field === undefined || field === "" ? {} : { field }),
    },
  );
}
