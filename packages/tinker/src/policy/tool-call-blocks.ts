import type { ToolCall } from "@hs/spec";
import { z } from "zod";

const blockPattern = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g;
const callSchema = z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()).default({}) });

/**
 * Reads `<tool_call>{"name": ..., "arguments": {...}}</tool_call>` blocks (the Hermes format of the
 * Qwen chat templates) out of a reply. Returns the text outside the blocks, the calls, and why a
 * block could not be read, if one could not.
 */
export function parseToolCallBlocks(
  text: string,
  idPrefix: string,
): {
  content: string;
  toolCalls: ToolCall[];
  malformed?: string;
} {
  const toolCalls: ToolCall[] = [];
  let malformed: string | undefined;
  for (const match of text.matchAll(blockPattern)) {
    let value: unknown;
    try {
      value = JSON.parse(match[1] ?? "");
    } catch {
      malformed = `tool call ${toolCalls.length + 1} is not JSON`;
      break;
    }
    const parsed = callSchema.safeParse(value);
    if (!parsed.success) {
      malformed = `tool call ${toolCalls.length + 1} has no name or arguments object`;
      break;
    }
    toolCalls.push({
      id: `${idPrefix}-${toolCalls.length}`,
      name: parsed.data.name,
      arguments: parsed.data.arguments,
    });
  }
  const content = text.replace(blockPattern, "").trim();
  return malformed === undefined ? { content, toolCalls } : { content, toolCalls, malformed };
}
