import type { PolicyView, ToolCall, ToolResult, Trajectory } from "@hs/spec";
import { harnessCallMarker } from "./harness-call-text.js";
import { harnessCallTrigger } from "./runtime/harness-calls.js";

/** Where the policy could have made a harness call itself: the view it would have acted on, and the calls. */
export interface HarnessCallOccasion {
  /** Index of the step whose harness calls these are. */
  step: number;
  /** `prelude` (before the first step), `follow-up` (after the step's own result) or `check` (instead of the held submit). */
  trigger: "prelude" | "follow-up" | "check";
  /** The view without what these calls found: the one a policy making them itself would have acted on. */
  view: PolicyView;
  /** The harness calls, in the order they ran. */
  calls: ToolCall[];
  /** What each of `calls` returned, in the same order. */
  results: ToolResult[];
}

type ExecutedCall = NonNullable<Trajectory["preludeCalls"]>[number];

/** The calls and results of some executed calls. */
function callsAndResults(executed: readonly ExecutedCall[]): Pick<HarnessCallOccasion, "calls" | "results"> {
  return { calls: executed.map((entry) => entry.call), results: executed.map((entry) => entry.result) };
}

/** The next step's view with the follow-ups' text taken off its last message; null when it is not there. */
function viewWithoutFollowUps(view: PolicyView, followUpFeedback: string): PolicyView | null {
  const messages = view.messages;
  const last = messages.at(-1);
  if (last === undefined) return null;
  if (last.content === followUpFeedback) return { ...view, messages: messages.slice(0, -1) };
  const suffix = `\n\n${followUpFeedback}`;
  if (!last.content.endsWith(suffix)) return null;
  const own = { ...last, content: last.content.slice(0, -suffix.length) };
  return { ...view, messages: [...messages.slice(0, -1), own] };
}

/** The first step's view without the prelude's message, its last initial message; null when it is not there. */
function viewWithoutPrelude(view: PolicyView): PolicyView | null {
  const last = view.messages.at(-1);
  if (last?.role !== "user" || !last.content.includes(harnessCallMarker)) return null;
  return { ...view, messages: view.messages.slice(0, -1) };
}

function preludeOccasion(trajectory: Pick<Trajectory, "steps" | "preludeCalls">): HarnessCallOccasion[] {
  const first = trajectory.steps[0];
  const executed = trajectory.preludeCalls ?? [];
  const view = first === undefined || executed.length === 0 ? null : viewWithoutPrelude(first.view);
  return view === null ? [] : [{ step: 0, trigger: "prelude", view, ...callsAndResults(executed) }];
}

/**
 * The occasions of a trajectory's harness calls: the prelude's calls under the first step's view without
 * the prelude's message, a follow-up's calls under the next step's view without the follow-ups' text, a
 * check's calls under the view of the step that submitted. Follow-ups of a last step have no next view
 * and no occasion.
 */
export function harnessCallOccasions(
  trajectory: Pick<Trajectory, "steps" | "preludeCalls">,
): HarnessCallOccasion[] {
  const occasions: HarnessCallOccasion[] = preludeOccasion(trajectory);
  trajectory.steps.forEach((step, index) => {
    const made = (trigger: string) =>
      (step.harnessCalls ?? []).filter((executed) => harnessCallTrigger(executed.call.id) === trigger);
    const checks = made("check");
    if (checks.length > 0)
      occasions.push({ step: index, trigger: "check", view: step.view, ...callsAndResults(checks) });
    const followUps = made("follow-up");
    const next = trajectory.steps[index + 1];
    if (followUps.length === 0 || next === undefined || step.followUpFeedback === undefined) return;
    const view = viewWithoutFollowUps(next.view, step.followUpFeedback);
    if (view !== null)
      occasions.push({ step: index, trigger: "follow-up", view, ...callsAndResults(followUps) });
  });
  return occasions;
}
