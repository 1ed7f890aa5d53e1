import type { GoldReplayFailure, GoldReplayReportV1, Task } from "@hs/spec";
import type { SweInstance } from "../data/swe-instance.js";
import type { EpisodeSettings } from "../environment/environment.js";
import { runEvaluation } from "../evaluation/run-evaluation.js";
import { tailLines } from "../runtime/workspace-templates.js";

/** What gold replay needs from the benchmark. */
export interface GoldReplayContext {
  /** The grader's instance of a task. */
  instanceOf: (taskId: string) => SweInstance | undefined;
  /** Spec, parser and limits of an instance; undefined when its repository has no spec. */
  settingsFor: (instance: SweInstance) => EpisodeSettings | undefined;
  /** `local` or `docker`. */
  runtimeId: string;
  /** Cancels the replay. */
  signal?: AbortSignal;
  /** Progress. */
  onProgress?: (done: number, total: number, detail?: string) => void;
}

interface Timing {
  checkoutMs: number[];
  testMs: number[];
  failureDetails: Record<string, ReplayFailureDetail[]>;
}

/** Lines of the log's tail shown with a failure on the terminal (the JSON holds more). */
export const failureTailLines = 12;

/** What the JSON report holds of one failed evaluation. */
export interface ReplayFailureDetail {
  /** `gold` or `empty`. */
  patch: "gold" | "empty";
  /** Why it did not resolve (or why the empty patch did). */
  reason: string;
  /** The last 8,000 characters of the log. */
  log_tail: string;
  /** Test id -> status, as read after the start marker (also from a cut log). */
  tests_status_map: Record<string, string>;
}

function withTail(reason: string, log: string): string {
  const tail = tailLines(log, failureTailLines)
    .split("\n")
    .map((line) => `    | ${line}`)
    .join("\n");
  return `${reason}\n  log tail:\n${tail}`;
}

async function replayOne(
  task: Task,
  context: GoldReplayContext,
  timing: Timing,
): Promise<{ gold: boolean; empty: boolean; failures: GoldReplayFailure[] }> {
  const instance = context.instanceOf(task.id);
  if (instance === undefined)
    return { gold: false, empty: false, failures: [{ taskId: task.id, reason: "not loaded" }] };
  const settings = context.settingsFor(instance);
  if (settings === undefined) {
    const reason = `no spec for ${instance.repo} version ${instance.version} (add it with --specs FILE)`;
    return { gold: false, empty: false, failures: [{ taskId: task.id, reason }] };
  }
  const failures: GoldReplayFailure[] = [];
  const outcome = { gold: false, empty: false };
  for (const kind of ["gold", "empty"] as const) {
    try {
      const result = await runEvaluation({
        instance,
        spec: settings.spec,
        parser: settings.parser,
        patch: kind === "gold" ? instance.patch : "",
        runtime: settings.runtime,
        timeLimitMs: settings.gradeTimeLimitMs,
        condaEnvironment: settings.condaEnvironment,
        ...(context.signal === undefined ? {} : { signal: context.signal }),
      });
      timing.checkoutMs.push(result.checkoutMs);
      timing.testMs.push(result.testMs);
      outcome[kind] = result.report.resolved;
      const reason =
        kind === "gold" && !result.report.resolved
          ? `gold patch not resolved: ${result.failureReason ?? "not resolved"}`
          : kind === "empty" && result.report.resolved
            ? "the empty patch resolves it: no FAIL_TO_PASS test fails before the fix"
            : null;
      if (reason !== null) {
        failures.push({ taskId: task.id, reason: withTail(reason, result.log) });
        timing.failureDetails[task.id] ??= [];
        timing.failureDetails[task.id]?.push({
          patch: kind,
          reason,
          log_tail: result.log.slice(-8000),
          tests_status_map: result.observedStatusMap,
        });
      }
    } catch (error) {
      failures.push({ taskId: task.id, reason: `${kind} patch: ${(error as Error).message}` });
    }
  }
  return { ...outcome, failures };
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : Math.round(values.reduce((sum, value) => sum + value, 0) / values.length);

/**
 * Runs every task's gold patch and the empty patch through SWE-bench's evaluation, each in a fresh
 * workspace. A missing repository or spec is a failure with its reason, never a crash.
 */
export async function runGoldReplay(
  tasks: readonly Task[],
  context: GoldReplayContext,
): Promise<GoldReplayReportV1> {
  const began = Date.now();
  const timing: Timing = { checkoutMs: [], testMs: [], failureDetails: {} };
  let passed = 0;
  let emptyPassed = 0;
  const failures: GoldReplayFailure[] = [];
  for (const [index, task] of tasks.entries()) {
    const result = await replayOne(task, context, timing);
    if (result.gold) passed += 1;
    if (result.empty) emptyPassed += 1;
    failures.push(...result.failures);
    context.onProgress?.(index + 1, tasks.length, task.id);
  }
  const seconds = (Date.now() - began) / 1000;
  return {
    passed,
    total: tasks.length,
    emptyPassed,
    failures,
    details: {
      runtime: context.runtimeId,
      evaluations: timing.testMs.length,
      wallSeconds: Math.round(seconds * 10) / 10,
      evaluationsPerSecond: seconds === 0 ? 0 : Math.round((timing.testMs.length / seconds) * 100) / 100,
      meanCheckoutMs: mean(timing.checkoutMs),
      meanTestRunMs: mean(timing.testMs),
      failureDetails: timing.failureDetails,
    },
  };
}
