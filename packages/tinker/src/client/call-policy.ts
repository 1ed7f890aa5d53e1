import type { Clock } from "./clock.js";
import { TinkerDeadlineError } from "./errors.js";

/**
 * The client's retry, idempotency and time-limit policy, as the SDK's (thinking-machines-lab/tinker
 * 0.24.1 and 0.25.0, `src/tinker/_base_client.py`, `_constants.py`, `lib/internal_client_holder.py`
 * `execute_with_retries`, `lib/api_future_impl.py`, `lib/public_interfaces/sampling_client.py`):
 *
 * - every HTTP call draws a fresh `X-Idempotency-Key`, reused only by that call's low-level retries;
 * - low-level retries: connection errors, attempt time-outs, 408, 429 (Retry-After up to 60 s
 *   honoured) and 5xx, `maxRetries` times, backoff 0.5 s doubling to 10 s with up to 25% jitter;
 *   409 is not retried (SkyRL answers it for a reused seq_id or an existing checkpoint, which no
 *   retry can fix; the SDK retries it);
 * - a submission whose low-level retries ran out is sent again as a new call (a new key, the same
 *   seq_id, so SkyRL de-duplicates it by seq_id) after min(2^n, 30) s, for up to 5 minutes;
 * - `/retrieve_future` attempts may be held by the server up to 300 s (SkyRL), so they time out
 *   only after `longPollTimeoutMs`; 408, 5xx and `try_again` poll again, immediately when the server
 *   held the poll, after a growing pause (50 ms doubling to 2 s) when it answered at once; 429 and
 *   connection errors back off min(2^n, 30) s; a bare 400 is polled again 3 times, then fails;
 *   410 (promise expired) re-sends a sampling call with a new seq_id and fails a training call;
 * - every logical call (submission and future) ends by `deadlineMs` with a `TinkerDeadlineError`,
 *   and while it waits a progress notice is emitted at least every `progressIntervalMs`.
 */
export interface CallPolicy {
  /** Low-level retries of one HTTP call (default 10, the SDK's DEFAULT_MAX_RETRIES). */
  maxRetries: number;
  /** First low-level backoff in ms (default 500, the SDK's INITIAL_RETRY_DELAY). */
  initialBackoffMs: number;
  /** Longest low-level backoff in ms (default 10,000, the SDK's MAX_RETRY_DELAY). */
  maxBackoffMs: number;
  /** Time limit of one HTTP attempt in ms (default 60,000, the SDK's DEFAULT_TIMEOUT). */
  attemptTimeoutMs: number;
  /** Time limit of one `/retrieve_future` attempt in ms (default 330,000: SkyRL holds 300 s). */
  longPollTimeoutMs: number;
  /** How long a failed submission is sent again as a new call, in ms (default 300,000). */
  resubmitWindowMs: number;
  /** Total time one logical call (submission and future) may take, in ms (default 3,600,000). */
  deadlineMs: number;
  /** Longest reply body read, in bytes (default 64 MiB); sample replies are capped by max_tokens. */
  maxReplyBytes: number;
  /** Period of progress notices while waiting, in ms (default 10,000). */
  progressIntervalMs: number;
}

/** The defaults of `CallPolicy`. */
export const defaultCallPolicy: CallPolicy = {
  maxRetries: 10,
  initialBackoffMs: 500,
  maxBackoffMs: 10_000,
  attemptTimeoutMs: 60_000,
  longPollTimeoutMs: 330_000,
  resubmitWindowMs: 300_000,
  deadlineMs: 3_600_000,
  maxReplyBytes: 64 * 1024 * 1024,
  progressIntervalMs: 10_000,
};

/** First pause after a poll the server answered at once (408, 5xx, try_again), in ms. */
export const firstPollPauseMs = 50;
/** Longest such pause, in ms. */
export const maxPollPauseMs = 2000;
/** A poll that took at least this long was held by the server: poll again at once. */
export const heldPollMs = 1000;
/** Bare 400 answers to `/retrieve_future` polled again before failing (the SDK's 3). */
export const maxBadRequestRetries = 3;

/** A progress notice while a call waits. */
export interface WaitNotice {
  /** What is waited on, e.g. `/forward_backward request_12`. */
  waitedOn: string;
  /** Milliseconds since the logical call started. */
  elapsedMs: number;
  /** The deadline in milliseconds. */
  deadlineMs: number;
  /** The last thing the server said, e.g. `try_again`, `HTTP 503, retry 2`. */
  state: string;
}

/** The time budget of one logical call, with its progress notices. */
export class CallDeadline {
  readonly startedAt: number;
  private lastNoticeAt: number;
  private state = "sent";
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly waitedOn: string,
    private readonly clock: Clock,
    private readonly policy: CallPolicy,
    private readonly onProgress: ((notice: WaitNotice) => void) | undefined,
  ) {
    this.startedAt = clock.now();
    this.lastNoticeAt = this.startedAt;
    if (onProgress !== undefined) {
      this.timer = setInterval(() => this.notice(true), policy.progressIntervalMs);
      this.timer.unref?.();
    }
  }

  /** Milliseconds left (may be negative). */
  remainingMs(): number {
    return this.startedAt + this.policy.deadlineMs - this.clock.now();
  }

  /** Records what the server last said and emits a notice when one is due. */
  update(state: string): void {
    this.state = state;
    this.notice(false);
  }

  /** Throws `TinkerDeadlineError` once the deadline has passed. */
  check(): void {
    if (this.remainingMs() <= 0) {
      this.end();
      throw new TinkerDeadlineError(this.waitedOn, this.policy.deadlineMs, this.state);
    }
  }

  /** A pause of `milliseconds` cut to the time left; throws when none is left. */
  pause(milliseconds: number): number {
    this.check();
    return Math.max(0, Math.min(milliseconds, this.remainingMs()));
  }

  /** Stops the progress timer. */
  end(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private notice(fromTimer: boolean): void {
    if (this.onProgress === undefined) return;
    const now = this.clock.now();
    if (!fromTimer && now - this.lastNoticeAt < this.policy.progressIntervalMs) return;
    this.lastNoticeAt = now;
    this.onProgress({
      waitedOn: this.waitedOn,
      elapsedMs: now - this.startedAt,
      deadlineMs: this.policy.deadlineMs,
      state: this.state,
    });
  }
}

/** The SDK's low-level backoff: 0.5 s doubling to 10 s, jitter 0-25% down; Retry-After 0-60 s wins. */
export function lowLevelBackoffMs(
  policy: CallPolicy,
  retry: number,
  retryAfterMs: number | undefined,
  random: () => number,
): number {
  if (retryAfterMs !== undefined && retryAfterMs > 0 && retryAfterMs <= 60_000) return retryAfterMs;
  const exponential = Math.min(policy.maxBackoffMs, policy.initialBackoffMs * 2 ** (retry - 1));
  return exponential * (1 - 0.25 * random());
}

/** The SDK's backoff for connection errors and resubmissions: min(2^n, 30) s. */
export function connectionBackoffMs(failures: number): number {
  return Math.min(2 ** failures, 30) * 1000;
}
