import type { ChatMessage, endReasons, HarnessEvent, TrajectoryStep } from "@hs/spec";
import type { Turn } from "./select-context.js";

/**
 * The state of one episode. It belongs to the run that created it (no other code holds it), so the
 * steps update it in place; a step's own counters are written back only once the step is recorded.
 */
export interface EpisodeState {
  /** Pinned messages: system, examples, task. */
  initial: ChatMessage[];
  /** Every turn so far. */
  turns: Turn[];
  /** Every recorded step. */
  steps: TrajectoryStep[];
  /** Unparsable actions in a row. */
  malformedInARow: number;
  /** Submits held back for checking. */
  checks: number;
  /** Characters of policy output so far. */
  outputChars: number;
  /** Turns already reported as dropped by the context policy. */
  droppedTurns: number;
  /** Why the episode ended, once it has. */
  endReason: (typeof endReasons)[number] | null;
  /** Error text when it ended with an error. */
  error: string | null;
  /** Milliseconds in the environment (reset, steps, grade). */
  environmentMs: number;
  /** Milliseconds in the policy. */
  policyMs: number;
}

/** The state of an episode before its first step. */
export function initialEpisodeState(initial: ChatMessage[]): EpisodeState {
  return {
    initial,
    turns: [],
    steps: [],
    malformedInARow: 0,
    checks: 0,
    outputChars: 0,
    droppedTurns: 0,
    endReason: null,
    error: null,
    environmentMs: 0,
    policyMs: 0,
  };
}

/** Every event of every step, in order. */
export function allEvents(state: EpisodeState): HarnessEvent[] {
  return state.steps.flatMap((step) => step.events);
}
