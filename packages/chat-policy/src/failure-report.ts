import type { ChatPolicyStats } from "./chat-policy.js";
import type { ChatFailureNotice, ChatRetryNotice } from "./chat-policy-options.js";

/** The `onRetry` and `onError` options of a policy whose failures are written as lines. */
export interface FailureReporter {
  /** Writes one line per retried attempt. */
  onRetry: (notice: ChatRetryNotice) => void;
  /** Writes one line per call that failed for good. */
  onError: (notice: ChatFailureNotice) => void;
}

function firstLine(error: Error): string {
  const line = error.message.split("\n")[0] ?? "";
  return line.length <= 240 ? line : `${line.slice(0, 240)}...`;
}

/**
 * Reporting hooks that write each failure once, as one line starting with `label`, e.g.
 * `createChatPolicy({ ...options, ...reportFailures("llm classifier", (line) => process.stderr.write(`${line}\n`)) })`.
 */
export function reportFailures(label: string, write: (line: string) => void): FailureReporter {
  return {
    onRetry: ({ attempt, delayMs, error }) =>
      write(
        `${label}: attempt ${attempt} failed, retrying in ${Math.round(delayMs)} ms: ${firstLine(error)}`,
      ),
    onError: ({ attempts, error }) =>
      write(
        `${label}: call failed after ${attempts} attempt${attempts === 1 ? "" : "s"}: ${firstLine(error)}`,
      ),
  };
}

/**
 * The closing line of a run that used a chat policy, or undefined when no attempt failed, e.g.
 * `llm classifier: 2 of 40 calls failed (5 failed attempts, 3 retried)`.
 */
export function summarizeFailures(label: string, stats: Readonly<ChatPolicyStats>): string | undefined {
  if (stats.failedAttempts === 0) return undefined;
  const calls = `${stats.failed} of ${stats.calls} call${stats.calls === 1 ? "" : "s"} failed`;
  const attempts = `${stats.failedAttempts} failed attempt${stats.failedAttempts === 1 ? "" : "s"}`;
  return `${label}: ${calls} (${attempts}, ${stats.retries} retried)`;
}
