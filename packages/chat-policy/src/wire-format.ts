import { describeZodIssue } from "@hs/harness";
import type { PolicyActOptions, ToolSpec } from "@hs/spec";
import { type ChatMessage, InvalidInputError, type PolicyView, policyViewSchema } from "@hs/spec";
import type { ChatPolicySettings } from "./chat-policy-options.js";

/** A tool call as the chat-completions protocol writes it. */
export interface WireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A chat-completions request message. */
export type WireMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: WireToolCall[] }
  | { role: "tool"; content: string; tool_call_id: string };

/** A chat-completions tool declaration. */
export interface WireTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** Maps harness messages to chat-completions messages; a `tool` message must carry `toolCallId`. */
export function toWireMessages(messages: readonly ChatMessage[]): WireMessage[] {
  return messages.map((message, index): WireMessage => {
    switch (message.role) {
      case "system":
      case "user":
        return { role: message.role, content: message.content };
      case "assistant": {
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) return { role: "assistant", content: message.content };
        return {
          role: "assistant",
          content: message.content === "" ? null : message.content,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          })),
        };
      }
    }
    if (message.toolCallId === undefined) {
      throw new InvalidInputError(
        "a tool message needs toolCallId (the id of the assistant tool call it answers)",
        {
          field: `view.messages.${index}.toolCallId`,
        },
      );
    }
    return { role: "tool", content: message.content, tool_call_id: message.toolCallId };
  });
}

/** Maps harness tool specs to chat-completions `tools` entries. */
export function toWireTools(tools: readonly ToolSpec[]): WireTool[] {
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/** Builds the JSON body of one chat-completions request for a view. */
export function buildChatCompletionRequest(
  view: PolicyView,
  settings: Pick<
    ChatPolicySettings,
    | "model"
    | "temperature"
    | "topP"
    | "maxTokens"
    | "maxTokensField"
    | "logprobs"
    | "topLogprobs"
    | "returnTokenIds"
    | "extraBody"
  >,
  options: Pick<PolicyActOptions, "seed" | "mode">,
): Record<string, unknown> {
  const checked = policyViewSchema.safeParse(view);
  if (!checked.success) {
    const { field, message } = describeZodIssue(checked.error);
    throw new InvalidInputError(`invalid policy view: ${message}`, { field: `view.${field}` });
  }
  if (!Number.isInteger(options.seed)) {
    throw new InvalidInputError(`seed must be an integer, got ${options.seed}`, { field: "seed" });
  }
  const greedy = options.mode === "greedy";
  const body: Record<string, unknown> = {
    model: settings.model,
    messages: toWireMessages(view.messages),
    seed: options.seed,
    temperature: greedy ? 0 : settings.temperature,
    stream: false,
  };
  if (!greedy && settings.topP !== undefined) body.top_p = settings.topP;
  if (settings.maxTokens !== undefined) body[settings.maxTokensField] = settings.maxTokens;
  if (settings.logprobs) {
    body.logprobs = true;
    if (settings.topLogprobs !== undefined) body.top_logprobs = settings.topLogprobs;
  }
  if (settings.returnTokenIds) body.return_token_ids = true;
  if (view.actionFormat === "tool-calls" && view.tools.length > 0) body.tools = toWireTools(view.tools);
  return { ...body, ...settings.extraBody };
}
