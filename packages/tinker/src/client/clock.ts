import { CancelledError } from "@hs/spec";

/** Time source of the client: injectable so tests can record and skip waits. */
export interface Clock {
  /** Milliseconds since some fixed point. */
  now(): number;
  /** Waits `milliseconds`; rejects with CancelledError when `signal` aborts. */
  sleep(milliseconds: number, signal?: AbortSignal): Promise<void>;
}

/** The wall clock. */
export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (milliseconds, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(new CancelledError());
        return;
      }
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, milliseconds);
      const onAbort = () => {
        clearTimeout(timer);
        reject(new CancelledError());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};
