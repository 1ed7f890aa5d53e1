import type { ChatMessage, HarnessEvent, TrajectoryStep } from "@hs/spec";
import type { EpisodeState } from "./episode-state.js";

/** What one step has done so far; its counters reach the episode state when the step is recorded. */
export interface StepProgress {
  /** 0-based step index. */
  index: number;
  /** Events of this step, in order. */
  events: HarnessEvent[];
  /** Messages shown to the policy after its reply. */
  feedback: ChatMessage[];
  /** Environment calls made for the policy's calls. */
  executed: TrajectoryStep["executed"];
  /** Environment calls the harness made itself (checks, follow-ups). */
  harnessCalls: TrajectoryStep["executed"];
  /** Follow-up notes with the results of their calls. */
  followUpTexts: string[];
  /** Milliseconds in the environment during this step. */
  environmentMs: number;
  /** Why the episode ends with this step, if it does. */
  endReason: EpisodeState["endReason"];
  /** Unparsable actions in a row, this one included. */
  malformedInARow: number;
  /** Submits held back for checking, this step's included. */
  checks: number;
  /** Characters of policy output, this step's included. */
  outputChars: number;
}

/** The progress of step `index` before its action is handled, with the events noticed so far. */
export function startStep(
  state: EpisodeState,
  index: number,
  actionChars: number,
  events: HarnessEvent[],
): StepProgress {
  return {
    index,
    events,
    feedback: [],
    executed: [],
    harnessCalls: [],
    followUpTexts: [],
    environmentMs: 0,
    endReason: null,
    malformedInARow: state.malformedInARow,
    checks: state.checks,
    outputChars: state.outputChars + actionChars,
  };
}
