import type { HarnessConfig } from "../spec/harness-config.js";
import type { ChatMessage } from "../spec/message.js";

/** One policy turn: its reply and the feedback the harness showed after it. */
export interface Turn {
  /** The policy's message. */
  reply: ChatMessage;
  /** Observation, error or re-prompt messages shown after it. */
  feedback: ChatMessage[];
}

/** Cuts an observation to the configured length, appending the marker. */
export function truncateObservation(
  text: string,
  context: HarnessConfig["context"],
): { text: string; cutFrom: number | null } {
  const limit = context.truncateObservationChars;
  if (limit === null || text.length <= limit) return { text, cutFrom: null };
  return { text: `${text.slice(0, limit)}${context.truncationMarker}`, cutFrom: text.length };
}

/**
 * The context middleware (section `context`): which messages the policy sees. Keeps the last N turns;
 * the initial messages are kept when pinned, otherwise only the system message survives a cut.
 */
export function selectContext(
  initial: readonly ChatMessage[],
  turns: readonly Turn[],
  context: HarnessConfig["context"],
): { messages: ChatMessage[]; droppedTurns: number } {
  const keep = context.keepLastTurns;
  const droppedTurns = keep === null ? 0 : Math.max(0, turns.length - keep);
  const kept = turns.slice(droppedTurns);
  const head =
    droppedTurns > 0 && !context.pinTask ? initial.filter((message) => message.role === "system") : initial;
  return { messages: [...head, ...kept.flatMap((turn) => [turn.reply, ...turn.feedback])], droppedTurns };
}
