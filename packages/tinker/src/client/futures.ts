import type { z } from "zod";
import { requestFailedReplySchema, tryAgainReplySchema } from "../protocol/replies.js";
import {
  type CallDeadline,
  connectionBackoffMs,
  firstPollPauseMs,
  heldPollMs,
  maxBadRequestRetries,
  maxPollPauseMs,
} from "./call-policy.js";
import { TinkerApiError, TinkerRequestFailedError } from "./errors.js";
import {
  describeFailure,
  detailText,
  parseReply,
  ReplyTooLargeError,
  statusError,
  type TinkerTransport,
} from "./transport.js";

/** How one future is awaited. */
export interface FutureWaitOptions {
  /** The logical call's deadline and progress notices. */
  deadline: CallDeadline;
  /**
   * After 410 (the promise is gone): a sampling call re-sends itself with a new seq_id and answers
   * the new request id (as the SDK's `sampling_client.py` retry handler); without it, 410 fails.
   */
  resend?: () => Promise<string>;
  /** Longest result body read (a sample's is capped by max_tokens). */
  maxReplyBytes?: number;
  /** Cancels the wait. */
  signal?: AbortSignal;
}

/** Re-sends allowed after 410 before giving up. */
const maxResends = 5;

/**
 * Polls `/retrieve_future` until the queued request answers, following the SDK's
 * `lib/api_future_impl.py` (see `CallPolicy`): try_again, 408 and 5xx poll again (at once when the
 * server held the poll, after a growing pause when it answered at once), 429 and connection errors
 * back off, a bare 400 is polled again 3 times, 410 re-sends a sampling call or fails, a failure is
 * Tinker's `{error, category}` (200) or SkyRL's 400 `{detail}`. The deadline bounds it all.
 */
export async function awaitFuture<T>(
  transport: TinkerTransport,
  firstRequestId: string,
  schema: z.ZodType<T>,
  options: FutureWaitOptions,
): Promise<T> {
  const { deadline } = options;
  const poll = new PollState(transport, deadline, options.signal);
  let requestId = firstRequestId;
  let resends = 0;
  for (;;) {
    deadline.check();
    const started = transport.clock.now();
    let answer: Awaited<ReturnType<TinkerTransport["attempt"]>>;
    try {
      answer = await transport.attempt("POST", "/retrieve_future", { request_id: requestId }, undefined, {
        deadline,
        attemptTimeoutMs: transport.policy.longPollTimeoutMs,
        ...(options.maxReplyBytes === undefined ? {} : { maxReplyBytes: options.maxReplyBytes }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    } catch (error) {
      if (options.signal?.aborted || error instanceof ReplyTooLargeError) throw error;
      await poll.connectionFailed(`${describeFailure(error)} on ${requestId}`);
      continue;
    }
    poll.connected();
    const heldMs = transport.clock.now() - started;
    const { status } = answer;
    if (status === 408 || status >= 500) {
      await poll.pending(`HTTP ${status} on ${requestId}`, heldMs);
      continue;
    }
    if (status === 429) {
      await poll.connectionFailed(`HTTP 429 on ${requestId}`, answer.retryAfterMs);
      continue;
    }
    if (status === 410) {
      if (options.resend === undefined || ++resends > maxResends) {
        throw new TinkerApiError(
          `future ${requestId} expired (HTTP 410)${options.resend === undefined ? "; a training call is not re-sent, as the SDK" : ` ${resends} times`}`,
          { status: 410, endpoint: "/retrieve_future", responseBody: answer.text.slice(0, 2000) },
          { isRetryable: true },
        );
      }
      deadline.update(`HTTP 410 on ${requestId}, re-sent`);
      requestId = await options.resend();
      continue;
    }
    if (status === 400) {
      if (await poll.badRequest(`HTTP 400 on ${requestId}`)) continue;
      throw new TinkerRequestFailedError(
        detailText(answer.body) ?? answer.text.slice(0, 2000),
        "user",
        requestId,
      );
    }
    if (status !== 200) throw statusError("/retrieve_future", answer);
    const tryAgain = tryAgainReplySchema.safeParse(answer.body);
    if (tryAgain.success) {
      const paused = tryAgain.data.queue_state !== undefined && tryAgain.data.queue_state !== "active";
      await poll.pending(
        `try_again (${tryAgain.data.queue_state ?? "active"}) on ${requestId}`,
        heldMs,
        paused,
      );
      continue;
    }
    const failed = requestFailedReplySchema.safeParse(answer.body);
    if (failed.success)
      throw new TinkerRequestFailedError(failed.data.error, failed.data.category, requestId);
    deadline.end();
    return parseReply("/retrieve_future", answer.body, schema);
  }
}

/** Pauses and counters of one future's polling. */
class PollState {
  private pauseMs = firstPollPauseMs;
  private connectionFailures = 0;
  private badRequests = 0;

  constructor(
    private readonly transport: TinkerTransport,
    private readonly deadline: CallDeadline,
    private readonly signal: AbortSignal | undefined,
  ) {}

  connected(): void {
    this.connectionFailures = 0;
  }

  /** Not done yet: poll again at once after a held poll, else after a growing pause. */
  async pending(state: string, heldMs: number, paused = false): Promise<void> {
    this.badRequests = 0;
    this.deadline.update(state);
    if (heldMs >= heldPollMs && !paused) {
      this.pauseMs = firstPollPauseMs;
      return;
    }
    const pause = paused ? Math.max(heldPollMs, this.pauseMs) : this.pauseMs;
    this.pauseMs = Math.min(maxPollPauseMs, this.pauseMs * 2);
    await this.sleep(pause);
  }

  async connectionFailed(state: string, retryAfterMs?: number): Promise<void> {
    this.deadline.update(state);
    const pause = retryAfterMs ?? connectionBackoffMs(this.connectionFailures);
    this.connectionFailures++;
    await this.sleep(pause);
  }

  /** Whether a bare 400 is polled again (3 times, as the SDK). */
  async badRequest(state: string): Promise<boolean> {
    if (this.badRequests >= maxBadRequestRetries) return false;
    this.badRequests++;
    this.deadline.update(`${state}, retry ${this.badRequests} of ${maxBadRequestRetries}`);
    await this.sleep(this.pauseMs);
    return true;
  }

  private async sleep(milliseconds: number): Promise<void> {
    await this.transport.clock.sleep(this.deadline.pause(milliseconds), this.signal);
  }
}
