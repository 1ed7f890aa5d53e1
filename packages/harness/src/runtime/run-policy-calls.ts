import type { ToolCall, ToolResult } from "@hs/spec";
import type { Episode } from "./episode.js";
import { holdSubmitForCheck } from "./hold-submit.js";
import { renderToolError, renderToolResult } from "./render-feedback.js";
import { runFollowUps } from "./run-follow-ups.js";
import { runSubmitCheck } from "./run-submit-check.js";
import { truncateObservation } from "./select-context.js";
import type { StepProgress } from "./step-progress.js";

function joinResults(results: readonly ToolResult[]): ToolResult {
  if (results.length === 1) return results[0] as ToolResult;
  return {
    content: results.map((result) => result.content).join("\n\n"),
    isError: results.some((result) => result.isError),
    done: results.some((result) => result.done),
  };
}

/** Executes the environment calls of one offered policy call (a macro is several) and renders the result. */
async function runOfferedCall(
  episode: Episode,
  call: ToolCall,
  calls: readonly ToolCall[],
  progress: StepProgress,
): Promise<string> {
  const { errorRecovery } = episode.options.harness;
  const { events, index: step } = progress;
  if (calls.length > 1 || calls[0] !== call) {
    const detail = `${call.name} -> ${calls.map((entry) => entry.name).join(", ")}`;
    events.push({ type: "macro", step, detail });
  }
  const results: ToolResult[] = [];
  for (const environmentCall of calls) {
    const [result, elapsed] = await episode.timed("environmentMs", () =>
      episode.environment.step(environmentCall, episode.callOptions),
    );
    progress.environmentMs += elapsed;
    progress.executed.push({ call: environmentCall, result });
    results.push(result);
    if (result.done) break;
  }
  const result = joinResults(results);
  if (result.isError) events.push({ type: "tool-error", step, detail: result.content.slice(0, 200) });
  const text = result.isError
    ? renderToolError(errorRecovery, call.name, result.content)
    : renderToolResult(errorRecovery, result.content);
  if (result.done) progress.endReason = "submitted";
  else await runFollowUps(episode, call, result.content, progress);
  return text;
}

/** The text shown for one policy call: a held submit's check, a hidden tool's error, or the call's result. */
async function runPolicyCall(episode: Episode, call: ToolCall, progress: StepProgress): Promise<string> {
  const { harness } = episode.options;
  const held = holdSubmitForCheck(harness.verification, call, episode.environment.tools, progress.checks);
  if (held !== null) return runSubmitCheck(episode, call, held, progress);
  const calls = episode.exposure.resolve(call);
  if (calls !== null) return runOfferedCall(episode, call, calls, progress);
  const detail = `tool "${call.name}" is not offered`;
  progress.events.push({ type: "tool-hidden", step: progress.index, detail });
  return renderToolError(harness.errorRecovery, call.name, `tool "${call.name}" is not available`);
}

/**
 * Runs the policy's parsed calls in order until one ends the episode, cutting each observation by the
 * context policy, and adds the feedback: a tool message per call, or one user message for a text protocol.
 */
export async function runPolicyCalls(
  episode: Episode,
  calls: readonly ToolCall[],
  progress: StepProgress,
): Promise<void> {
  const { context } = episode.options.harness;
  const shown: string[] = [];
  for (const call of calls) {
    const cut = truncateObservation(await runPolicyCall(episode, call, progress), context);
    if (cut.cutFrom !== null) {
      progress.events.push({
        type: "truncated",
        step: progress.index,
        detail: `observation cut from ${cut.cutFrom} to ${context.truncateObservationChars} characters`,
      });
    }
    shown.push(cut.text);
    if (!episode.textProtocol) {
      progress.feedback.push({ role: "tool", content: cut.text, toolCallId: call.id, name: call.name });
    }
    if (progress.endReason !== null) break;
  }
  if (progress.endReason !== null) return;
  if (episode.textProtocol) {
    progress.feedback.push({ role: "user", content: [...shown, ...progress.followUpTexts].join("\n\n") });
  } else if (progress.followUpTexts.length > 0) {
    progress.feedback.push({ role: "user", content: progress.followUpTexts.join("\n\n") });
  }
}
