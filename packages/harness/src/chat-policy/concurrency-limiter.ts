import { CancelledError } from "../spec/errors.js";

/** Releases a slot taken from a `ConcurrencyLimiter`; calling it more than once has no effect. */
export type ReleaseSlot = () => void;

/** A counting semaphore: at most `limit` holders at once, waiters served in arrival order. */
export class ConcurrencyLimiter {
  readonly limit: number;
  #active = 0;
  readonly #waiters: Array<{ grant: () => void }> = [];

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`concurrency limit must be >= 1, got ${limit}`);
    this.limit = limit;
  }

  /** Slots held right now. */
  get active(): number {
    return this.#active;
  }

  /** Callers waiting for a slot right now. */
  get waiting(): number {
    return this.#waiters.length;
  }

  /** Waits for a free slot. Rejects with `CancelledError` when the signal aborts first. */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
    if (signal?.aborted)
      return Promise.reject(new CancelledError("cancelled while waiting for a request slot"));
    if (this.#active < this.limit) {
      this.#active += 1;
      return Promise.resolve(this.#releaser());
    }
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          this.#active += 1;
          resolve(this.#releaser());
        },
      };
      const onAbort = () => {
        const index = this.#waiters.indexOf(waiter);
        if (index >= 0) this.#waiters.splice(index, 1);
        reject(new CancelledError("cancelled while waiting for a request slot"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  #releaser(): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active -= 1;
      this.#waiters.shift()?.grant();
    };
  }
}
