import { CancelledError } from "@hs/spec";
import pLimit, { type LimitFunction } from "p-limit";

/** At most `limit` tasks at once across every call of one policy instance, in arrival order (p-limit). */
export interface RequestSlots {
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a slot now (a waiter cancelled while queued stays counted until its turn). */
  readonly waiting: number;
  /** Runs `task` in a slot. Rejects with `CancelledError` when the signal aborts while it waits. */
  run<T>(task: () => Promise<T>, signal: AbortSignal | undefined): Promise<T>;
}

const waitCancelled = () => new CancelledError("cancelled while waiting for a request slot");

/**
 * p-limit has no per-task abort, so a task cancelled while it waits is settled at once here, and when
 * its turn comes it returns without running (it frees its slot at once).
 */
export function createRequestSlots(limit: number): RequestSlots {
  const limiter: LimitFunction = pLimit(limit);
  function run<T>(task: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    if (signal?.aborted) return Promise.reject(waitCancelled());
    let started = false;
    const queued = limiter(() => {
      if (signal?.aborted) return Promise.reject(waitCancelled());
      started = true;
      return task();
    });
    if (signal === undefined) return queued;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        if (!started) reject(waitCancelled());
      };
      signal.addEventListener("abort", onAbort, { once: true });
      queued.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  }
  return {
    get active() {
      return limiter.activeCount;
    },
    get waiting() {
      return limiter.pendingCount;
    },
    run,
  };
}
