import { CancelledError } from "@hs/spec";

/** Waits `milliseconds`; rejects with `CancelledError` as soon as the signal aborts. */
export type Sleep = (milliseconds: number, signal?: AbortSignal) => Promise<void>;

/** The default `Sleep`, on `setTimeout`. */
export const abortableSleep: Sleep = (milliseconds, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new CancelledError("cancelled while waiting to retry"));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CancelledError("cancelled while waiting to retry"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
