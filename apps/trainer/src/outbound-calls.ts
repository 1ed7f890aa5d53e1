import { createChatPolicy } from "@hs/chat-policy";
import type { PolicyV1 } from "@hs/spec";

/** Time limit and retries of one kind of outbound call, as the user set them. */
export interface CallLimits {
  /** Time limit of one attempt in milliseconds. */
  timeoutMs: number;
  /** Retries after a failed attempt (0: one attempt only). */
  retries: number;
}

/** Counts and reports the failures of a command's outbound calls (each one once, on stderr). */
export interface OutboundCalls {
  /**
   * A chat model for `role` (e.g. "llm proposer") whose failed calls are reported and counted.
   * `reportFailures: false` when the caller reports them itself (a classifier's `onError`), so each
   * failure is reported once.
   */
  chatModel(
    role: string,
    options: { model: string; baseURL?: string | undefined },
    limits: CallLimits,
    reportFailures?: boolean,
  ): PolicyV1;
  /** Reports a failure seen by a caller (e.g. a classifier's `onError`) unless it was reported already. */
  report(role: string, error: unknown, where?: string): void;
  /** Failed calls so far (after their retries). */
  readonly failures: number;
  /** Failed attempts that were retried. */
  readonly retried: number;
  /** The closing line for a run with failures (null when there were none). */
  summary(command: string): string | null;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Outbound-call bookkeeping writing to `stderr`. */
export function createOutboundCalls(stderr: (text: string) => void): OutboundCalls {
  const reported = new WeakSet<object>();
  const byRole = new Map<string, number>();
  let failures = 0;
  let retried = 0;
  const seen = (error: unknown): boolean => {
    // a caller may wrap the failure it got (`new Error(..., { cause })`): the same failure
    for (let link = error, depth = 0; typeof link === "object" && link !== null && depth < 8; depth++) {
      if (reported.has(link)) return true;
      link = (link as { cause?: unknown }).cause;
    }
    return false;
  };
  const report = (role: string, error: unknown, where?: string) => {
    if (seen(error)) return;
    if (typeof error === "object" && error !== null) reported.add(error);
    failures += 1;
    byRole.set(role, (byRole.get(role) ?? 0) + 1);
    stderr(`${role}${where === undefined ? "" : ` (${where})`}: call failed: ${messageOf(error)}\n`);
  };
  return {
    chatModel(role, options, limits, reportFailures = true) {
      const policy = createChatPolicy({
        model: options.model,
        ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
        timeoutMs: limits.timeoutMs,
        maxRetries: limits.retries,
        onRetry: (notice) => {
          retried += 1;
          stderr(
            `${role}: attempt ${notice.attempt} of ${limits.retries + 1} failed (${notice.error.message}); retrying in ${Math.round(notice.delayMs)} ms\n`,
          );
        },
      });
      return {
        specificationVersion: policy.specificationVersion,
        id: policy.id,
        version: policy.version,
        async act(view, actOptions) {
          try {
            return await policy.act(view, actOptions);
          } catch (error) {
            if (reportFailures) report(role, error);
            throw error;
          }
        },
      };
    },
    report,
    get failures() {
      return failures;
    },
    get retried() {
      return retried;
    },
    summary(command) {
      if (failures === 0) return null;
      const roles = [...byRole].map(([role, count]) => `${count} ${role}`).join(", ");
      return `${command}: finished with ${failures} failed outbound call${failures === 1 ? "" : "s"} (${roles}; ${retried} attempts retried); their results are missing from this run`;
    },
  };
}
