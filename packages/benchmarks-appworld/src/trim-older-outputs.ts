import type { ChatMessage } from "@hs/harness";
import { notShownMarker } from "./presets.js";

/** Options of `trimOlderOutputs`. */
export interface TrimOlderOutputsOptions {
  /** Characters the trimmed history may hold (AppWorld's `max_output_length`, 50,000 in base_react.py). */
  maxChars?: number;
  /** Messages at the end never trimmed (AppWorld keeps the last 5). */
  keepLast?: number;
}

/**
 * AppWorld's ReAct history rule (ace-agent/ace-appworld experiments/code/ace/base_react.py
 * `trimmed_messages`): while the messages after the task are longer than the limit, the oldest output
 * message not among the last `keepLast` is replaced by the not-shown marker; the task and code stay.
 * `pinned` leading messages (instructions, example, task) are never touched.
 */
export function trimOlderOutputs(
  messages: readonly ChatMessage[],
  pinned: number,
  options: TrimOlderOutputsOptions = {},
): ChatMessage[] {
  const maxChars = options.maxChars ?? 50_000;
  const keepLast = options.keepLast ?? 5;
  const result = messages.map((message) => ({ ...message }));
  const length = () => result.slice(pinned).reduce((sum, message) => sum + message.content.length, 0);
  const lastTrimmable = result.length - keepLast;
  for (let index = pinned; index < lastTrimmable && length() > maxChars; index += 1) {
    const message = result[index];
    if (message === undefined || message.role === "assistant" || message.content === notShownMarker) continue;
    message.content = notShownMarker;
  }
  return result;
}
