import type { ChatMessage } from "../spec/message.js";
import type { endReasons, HarnessEvent, TrajectoryStep } from "../spec/trajectory.js";
import type { Turn } from "./context-middleware.js";

/** The mutable state of one episode, updated only through immer. */
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

/** Every event of every step, in order. */
export function allEvents(state: EpisodeState): HarnessEvent[] {
  return state.steps.flatMap((step) => step.events);
}
