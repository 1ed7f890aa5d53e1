import { z } from "zod";
import { toolCallSchema, toolSpecSchema } from "./tool.js";

/** One chat message of the rendered view. */
export const chatMessageSchema = z.object({
  /** Who speaks. `tool` carries a tool result back to the policy. */
  role: z.enum(["system", "user", "assistant", "tool"]),
  /** Message text. */
  content: z.string(),
  /** Tool calls made by an assistant message (native tool-call format). */
  toolCalls: z.array(toolCallSchema).optional(),
  /** For a `tool` message, the id of the call it answers. */
  toolCallId: z.string().optional(),
  /** For a `tool` message, the name of the tool that answered. */
  name: z.string().optional(),
});
/** One chat message of the rendered view. */
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/**
 * Exactly what a policy sees at one step: the messages and tools the harness rendered, nothing else.
 */
export const policyViewSchema = z.object({
  /** The rendered conversation. */
  messages: z.array(chatMessageSchema),
  /** Tools offered natively (empty for a text protocol, whose tools are described in the prompt). */
  tools: z.array(toolSpecSchema),
  /** `tool-calls` when the policy should answer with native tool calls, `text` for a text protocol. */
  actionFormat: z.enum(["tool-calls", "text"]),
});
/** Exactly what a policy sees at one step. */
export type PolicyView = z.infer<typeof policyViewSchema>;
