import { describeZodIssue } from "@hs/harness";
import type { PolicyAction, TokenLogprob, ToolCall } from "@hs/spec";
import { z } from "zod";

/** What the chat policy keeps from a reply beyond the action itself (stored as `PolicyAction.trace`). */
export interface ChatCompletionTrace {
  /** Always `openai-compatible`. */
  backend: "openai-compatible";
  /** Model name the server reported. */
  model?: string;
  /** Response id the server reported. */
  responseId?: string;
  /** `system_fingerprint`, when reported. */
  systemFingerprint?: string;
  /** Generated token ids (vLLM `return_token_ids`), when reported. */
  tokenIds?: number[];
  /** Reasoning text some servers return beside the content (`reasoning_content` / `reasoning`). */
  reasoning?: string;
  /** The tool calls exactly as received, kept when they could not be read. */
  rawToolCalls?: unknown;
  /** HTTP attempts the call took (1 without retries). */
  attempts?: number;
}

const tokenLogprobEntrySchema = z.looseObject({
  token: z.string().nullish(),
  logprob: z.number(),
  token_id: z.number().int().nullish(),
  id: z.number().int().nullish(),
});

const toolCallEntrySchema = z.looseObject({
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.looseObject({
    name: z.string().min(1),
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
  }),
});

const choiceSchema = z.looseObject({
  message: z.looseObject({
    content: z.union([z.string(), z.array(z.unknown())]).nullish(),
    tool_calls: z.array(z.unknown()).nullish(),
    reasoning_content: z.string().nullish(),
    reasoning: z.string().nullish(),
  }),
  finish_reason: z.string().nullish(),
  logprobs: z.looseObject({ content: z.array(z.unknown()).nullish() }).nullish(),
  token_ids: z.array(z.number().int()).nullish(),
});

const completionSchema = z.looseObject({
  id: z.string().nullish(),
  model: z.string().nullish(),
  system_fingerprint: z.string().nullish(),
  choices: z.array(z.unknown()),
  usage: z.unknown().optional(),
});

const usageSchema = z.looseObject({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
});

/** vLLM's `return_tokens_as_token_ids` spelling of a token (vllm/entrypoints/openai/serving_engine.py). */
const tokenIdPattern = /^token_id:(\d+)$/;

function excerpt(text: string, limit = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= limit ? JSON.stringify(flat) : `${JSON.stringify(flat.slice(0, limit))}...`;
}

function malformedAction(reason: string, trace: ChatCompletionTrace): PolicyAction {
  return { content: "", logprob: null, malformed: reason, trace };
}

function readContent(content: string | unknown[] | null | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) =>
      typeof part === "object" && part !== null && typeof (part as { text?: unknown }).text === "string"
        ? (part as { text: string }).text
        : "",
    )
    .join("");
}

/**
 * Per-token log-probabilities of a choice. Token ids come from, in order: a numeric `token_id` or `id`
 * field of the entry (llama.cpp sends `id`), vLLM's `token_id:N` token text, then the choice's
 * `token_ids` array (vLLM `return_token_ids`) when it has one id per logprob entry.
 */
function readTokens(
  entries: readonly unknown[] | null | undefined,
  tokenIds: readonly number[] | undefined,
): TokenLogprob[] | undefined {
  if (entries === null || entries === undefined || entries.length === 0) return undefined;
  const tokens: TokenLogprob[] = [];
  for (const entry of entries) {
    const parsed = tokenLogprobEntrySchema.safeParse(entry);
    if (!parsed.success || !Number.isFinite(parsed.data.logprob)) return undefined;
    const { token, logprob, token_id: tokenIdField, id: idField } = parsed.data;
    const tokenIdMatch = typeof token === "string" ? tokenIdPattern.exec(token) : null;
    const id = tokenIdField ?? idField ?? (tokenIdMatch ? Number(tokenIdMatch[1]) : undefined);
    const item: TokenLogprob = { logprob };
    if (id !== undefined) item.id = id;
    if (typeof token === "string" && tokenIdMatch === null) item.text = token;
    tokens.push(item);
  }
  if (tokenIds !== undefined && tokenIds.length === tokens.length) {
    tokens.forEach((item, index) => {
      if (item.id === undefined) item.id = tokenIds[index]!;
    });
  }
  return tokens;
}

function readToolCalls(raw: readonly unknown[]): { calls: ToolCall[] } | { problem: string } {
  const calls: ToolCall[] = [];
  for (const [index, entry] of raw.entries()) {
    const parsed = toolCallEntrySchema.safeParse(entry);
    if (!parsed.success) {
      const { field, message } = describeZodIssue(parsed.error);
      return { problem: `tool call ${index} is not a function call (${field || "entry"}: ${message})` };
    }
    const { id, type, function: fn } = parsed.data;
    if (type !== null && type !== undefined && type !== "function") {
      return { problem: `tool call ${index} has type "${type}", expected "function"` };
    }
    let args: unknown;
    let argumentsText: string | undefined;
    if (typeof fn.arguments === "object" && fn.arguments !== null) {
      args = fn.arguments;
    } else {
      const text = (fn.arguments ?? "").trim();
      if (text === "") {
        args = {};
      } else {
        try {
          args = JSON.parse(text);
          argumentsText = text;
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          return {
            problem: `arguments of tool call ${index} (${fn.name}) are not valid JSON (${reason}): ${excerpt(text)}`,
          };
        }
      }
    }
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      return {
        problem: `arguments of tool call ${index} (${fn.name}) are not a JSON object: ${excerpt(JSON.stringify(args))}`,
      };
    }
    calls.push({
      id: id ?? `call_${index}`,
      name: fn.name,
      arguments: args as Record<string, unknown>,
      ...(argumentsText === undefined ? {} : { argumentsText }),
    });
  }
  return { calls };
}

/**
 * Reads the body of a successful (2xx) chat-completions reply as an action. Never throws: a body that
 * cannot be read as an action (not JSON, no choices, bad tool-call JSON) gives an action whose
 * `malformed` says why, keeping whatever content and log-probabilities could be read.
 */
export function parseChatCompletion(body: string): PolicyAction {
  const trace: ChatCompletionTrace = { backend: "openai-compatible" };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return malformedAction(`the server's reply is not JSON: ${excerpt(body)}`, trace);
  }
  const completion = completionSchema.safeParse(json);
  if (!completion.success) {
    const error = (json as { error?: unknown } | null)?.error;
    if (error !== undefined) {
      return malformedAction(
        `the server replied with an error object: ${excerpt(JSON.stringify(error))}`,
        trace,
      );
    }
    const { field, message } = describeZodIssue(completion.error);
    return malformedAction(
      `the reply is not a chat completion (${field}: ${message}): ${excerpt(body)}`,
      trace,
    );
  }
  const { id, model, system_fingerprint: fingerprint, choices, usage } = completion.data;
  if (typeof model === "string") trace.model = model;
  if (typeof id === "string") trace.responseId = id;
  if (typeof fingerprint === "string") trace.systemFingerprint = fingerprint;
  if (choices.length === 0) return malformedAction("the reply has an empty choices list", trace);
  const choice = choiceSchema.safeParse(choices[0]);
  if (!choice.success) {
    const { field, message } = describeZodIssue(choice.error);
    return malformedAction(`choice 0 of the reply is unreadable (${field}: ${message})`, trace);
  }
  const { message, finish_reason: finishReason, logprobs, token_ids: tokenIds } = choice.data;
  if (tokenIds !== null && tokenIds !== undefined) trace.tokenIds = tokenIds;
  const reasoning = message.reasoning_content ?? message.reasoning;
  if (typeof reasoning === "string" && reasoning !== "") trace.reasoning = reasoning;

  const action: PolicyAction = { content: readContent(message.content), logprob: null, trace };
  const tokens = readTokens(logprobs?.content, tokenIds ?? undefined);
  if (tokens !== undefined) {
    action.tokens = tokens;
    action.logprob = tokens.reduce((sum, token) => sum + token.logprob, 0);
  }
  if (typeof finishReason === "string") action.finishReason = finishReason;
  const readUsage = usageSchema.safeParse(usage);
  if (readUsage.success) {
    action.usage = {
      promptTokens: readUsage.data.prompt_tokens,
      completionTokens: readUsage.data.completion_tokens,
    };
  }
  const rawToolCalls = message.tool_calls;
  if (rawToolCalls !== null && rawToolCalls !== undefined && rawToolCalls.length > 0) {
    const read = readToolCalls(rawToolCalls);
    if ("problem" in read) {
      trace.rawToolCalls = rawToolCalls;
      action.malformed =
        finishReason === "length" ? `${read.problem} (generation stopped at the token limit)` : read.problem;
    } else {
      action.toolCalls = read.calls;
    }
  }
  return action;
}
