import { CancelledError } from "@hs/spec";

/** Rejects with `CancelledError` once the episode's signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError("episode cancelled", { cause: signal.reason });
}
