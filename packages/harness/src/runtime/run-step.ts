import type { ChatMessage, PolicyAction, PolicyView, TrajectoryStep } from "@hs/spec";
import { CancelledError } from "@hs/spec";
import { textSeed } from "../seeded-random.js";
import type { Episode } from "./episode.js";
import { type ParsedAction, parseAction } from "./parse-action.js";
import { renderMalformedAction } from "./render-feedback.js";
import { runPolicyCalls } from "./run-policy-calls.js";
import { selectContext } from "./select-context.js";
import { type StepProgress, startStep } from "./step-progress.js";

/** Seed of the policy call at one step, derived from the episode seed. */
export function stepSeed(seed: number, step: number): number {
  return textSeed(`${seed}:${step}`);
}

/** What the policy sees at this step (the context policy applied); reports newly dropped turns. */
function renderView(
  episode: Episode,
  index: number,
): { view: PolicyView; droppedTurns: number; events: TrajectoryStep["events"] } {
  const { state, textProtocol } = episode;
  const context = selectContext(state.initial, state.turns, episode.options.harness.context);
  const events: TrajectoryStep["events"] = [];
  if (context.droppedTurns > state.droppedTurns) {
    const detail = `${context.droppedTurns} earlier turns no longer shown`;
    events.push({ type: "context-dropped", step: index, detail });
  }
  const view: PolicyView = {
    messages: context.messages,
    tools: textProtocol ? [] : episode.exposure.visible,
    actionFormat: textProtocol ? "text" : "tool-calls",
  };
  return { view, droppedTurns: context.droppedTurns, events };
}

/** Asks the policy for its action; a failure after cancellation rejects as cancelled. */
async function askPolicy(episode: Episode, view: PolicyView, index: number): Promise<[PolicyAction, number]> {
  const { seed, mode, policy, signal } = episode.options;
  try {
    return await episode.timed("policyMs", () =>
      policy.act(view, { seed: stepSeed(seed, index), mode: mode ?? "sample", ...episode.callOptions }),
    );
  } catch (error) {
    if (signal?.aborted) throw new CancelledError("episode cancelled", { cause: error });
    throw error;
  }
}

/** The policy's reply as it stays in the history. */
function replyMessage(action: PolicyAction, textProtocol: boolean): ChatMessage {
  if (textProtocol) return { role: "assistant", content: action.content };
  return {
    role: "assistant",
    content: action.content,
    ...(action.toolCalls === undefined ? {} : { toolCalls: action.toolCalls }),
  };
}

/** An unparsable action: counted, then re-prompted, or the episode ends when re-prompts run out. */
function rejectMalformed(episode: Episode, reason: string, content: string, progress: StepProgress): void {
  const { errorRecovery } = episode.options.harness;
  const step = progress.index;
  progress.malformedInARow += 1;
  progress.events.push({ type: "malformed-action", step, detail: reason });
  if (progress.malformedInARow > errorRecovery.maxReprompts) {
    progress.endReason = "reprompts-exhausted";
    return;
  }
  const detail = `re-prompt ${progress.malformedInARow} of ${errorRecovery.maxReprompts}`;
  progress.events.push({ type: "reprompted", step, detail });
  progress.feedback.push({ role: "user", content: renderMalformedAction(errorRecovery, reason, content) });
}

/** Handles the action: the output budget first, then a malformed action, else its calls. */
async function handleAction(
  episode: Episode,
  action: PolicyAction,
  parsed: ParsedAction,
  progress: StepProgress,
): Promise<void> {
  const { budget } = episode.options.harness;
  if (budget.maxOutputChars !== null && progress.outputChars > budget.maxOutputChars) {
    const detail = `policy output reached ${progress.outputChars} characters`;
    progress.events.push({ type: "budget-hit", step: progress.index, detail });
    progress.endReason = "output-budget";
  } else if (!parsed.ok) {
    rejectMalformed(episode, parsed.reason, action.content, progress);
  } else {
    progress.malformedInARow = 0;
    await runPolicyCalls(episode, parsed.calls, progress);
  }
  if (progress.endReason === null && progress.index + 1 === budget.maxSteps) {
    const detail = `step budget of ${budget.maxSteps} used`;
    progress.events.push({ type: "budget-hit", step: progress.index, detail });
    progress.endReason = "budget";
  }
}

/**
 * One step of the loop: render the view, ask the policy, parse and handle its action, then record the
 * step and its turn on the episode state.
 */
export async function runStep(episode: Episode, index: number): Promise<void> {
  const { state } = episode;
  const { view, droppedTurns, events } = renderView(episode, index);
  const [action, policyMs] = await askPolicy(episode, view, index);
  const progress = startStep(state, index, action.content.length, events);
  const parsed = parseAction(episode.options.harness.actionFormat, action, `call-${index}`);
  await handleAction(episode, action, parsed, progress);
  const { executed, feedback, harnessCalls } = progress;
  state.steps.push({
    index,
    view,
    action,
    parsed: parsed.ok ? parsed.calls : null,
    executed,
    feedback: feedback.map((message) => message.content).join("\n\n"),
    events,
    ...(harnessCalls.length === 0 ? {} : { harnessCalls }),
    ...(progress.followUpTexts.length === 0 ? {} : { followUpFeedback: progress.followUpTexts.join("\n\n") }),
    policyMs,
    environmentMs: progress.environmentMs,
  });
  state.turns.push({ reply: replyMessage(action, episode.textProtocol), feedback });
  state.malformedInARow = progress.malformedInARow;
  state.checks = progress.checks;
  state.outputChars = progress.outputChars;
  state.droppedTurns = Math.max(state.droppedTurns, droppedTurns);
  state.endReason = progress.endReason;
}
