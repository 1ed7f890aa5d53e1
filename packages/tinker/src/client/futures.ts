import type { z } from "zod";
import { requestFailedReplySchema, tryAgainReplySchema } from "../protocol/replies.js";
import { TinkerApiError, TinkerRequestFailedError } from "./errors.js";
import { parseReply, statusError, type TinkerTransport } from "./transport.js";

/** How futures are polled. */
export interface FuturePollOptions {
  /** Wait between `try_again` answers, in ms (default 50; 1,000 while the queue is paused). */
  tryAgainDelayMs?: number;
  /** Re-sends allowed after 410 (default 5). */
  maxResends?: number;
  /** Cancels the wait. */
  signal?: AbortSignal;
}

/**
 * Polls `/retrieve_future` until the queued request answers, following the SDK's rules
 * (thinking-machines-lab/tinker `src/tinker/lib/api_future_impl.py`): a 200 `{"type":"try_again"}`
 * polls again after a pause, 408 polls again at once (SkyRL answers it when its wait times out),
 * 410 means the promise is gone and the original request is re-sent (same body, same seq_id, same
 * idempotency key, so the server dedups it), 429/5xx/connection errors back off inside the transport.
 * A failure arrives as Tinker's `{error, category}` (200) or SkyRL's 400 `{detail}`.
 */
export async function awaitFuture<T>(
  transport: TinkerTransport,
  firstRequestId: string,
  schema: z.ZodType<T>,
  resend: () => Promise<string>,
  options: FuturePollOptions = {},
): Promise<T> {
  let requestId = firstRequestId;
  let resends = 0;
  const signalOption = options.signal === undefined ? {} : { signal: options.signal };
  for (;;) {
    const answer = await transport.send("POST", "/retrieve_future", { request_id: requestId }, signalOption);
    if (answer.status === 408) continue;
    if (answer.status === 410) {
      resends++;
      if (resends > (options.maxResends ?? 5)) {
        throw new TinkerApiError(`future ${requestId} expired ${resends} times`, {
          status: 410,
          endpoint: "/retrieve_future",
        });
      }
      requestId = await resend();
      continue;
    }
    if (answer.status === 400) {
      const detail = (answer.body as { detail?: unknown } | undefined)?.detail;
      throw new TinkerRequestFailedError(
        typeof detail === "string" ? detail : answer.text,
        "user",
        requestId,
      );
    }
    if (answer.status !== 200) throw statusError("/retrieve_future", answer);
    const tryAgain = tryAgainReplySchema.safeParse(answer.body);
    if (tryAgain.success) {
      const paused = tryAgain.data.queue_state !== undefined && tryAgain.data.queue_state !== "active";
      await transport.clock.sleep(paused ? 1000 : (options.tryAgainDelayMs ?? 50), options.signal);
      continue;
    }
    const failed = requestFailedReplySchema.safeParse(answer.body);
    if (failed.success) {
      throw new TinkerRequestFailedError(failed.data.error, failed.data.category, requestId);
    }
    return parseReply("/retrieve_future", answer.body, schema);
  }
}
