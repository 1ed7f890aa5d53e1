import type { ChatMessage, HarnessConfig } from "@hs/spec";

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
 * Context selection (section `context`): which messages the policy sees. Keeps the last N turns;
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
  const history = kept.flatMap((turn) => [turn.reply, ...turn.feedback]);
  return {
    messages: [...head, ...trimOlderOutputs(history, context.trimOlderOutputs ?? null)],
    droppedTurns,
  };
}

/**
 * While the history holds more than `maxChars`, the oldest observation not among the last
 * `keepLastMessages` messages is replaced by the marker; the policy's own replies stay (AppWorld's
 * `trimmed_messages`, ace-agent/ace-appworld experiments/code/ace/base_react.py).
 */
export function trimOlderOutputs(
  history: readonly ChatMessage[],
  rule: NonNullable<HarnessConfig["context"]["trimOlderOutputs"]> | null,
): ChatMessage[] {
  if (rule === null) return [...history];
  const result = [...history];
  let length = result.reduce((sum, message) => sum + message.content.length, 0);
  const lastTrimmable = result.length - rule.keepLastMessages;
  for (let index = 0; index < lastTrimmable && length > rule.maxChars; index += 1) {
    const message = result[index];
    if (message === undefined || message.role === "assistant" || message.content === rule.marker) continue;
    length -= message.content.length - rule.marker.length;
    result[index] = { ...message, content: rule.marker };
  }
  return result;
}
