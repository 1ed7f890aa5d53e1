import { type ChatMessage, HarnessSError, type PolicyV1, TimeoutError } from "@hs/spec";
import type { z } from "zod";

/** The outcome of asking a chat model for a JSON answer. */
export type JsonAnswer<T> =
  | { ok: true; value: T; raw: string }
  | { ok: false; reason: string; raw: string | null; timedOut: boolean };

/** The first balanced JSON object in a reply (fenced or bare), or null. */
export function extractJsonObject(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const candidates = fenced?.[1] === undefined ? [text] : [fenced[1], text];
  for (const candidate of candidates) {
    const start = candidate.indexOf("{");
    if (start < 0) continue;
    let depth = 0;
    let inString = false;
    for (let index = start; index < candidate.length; index++) {
      const char = candidate[index];
      if (inString) {
        if (char === "\\") index += 1;
        else if (char === '"') inString = false;
        continue;
      }
      if (char === '"') inString = true;
      else if (char === "{") depth += 1;
      else if (char === "}") {
        depth -= 1;
        if (depth === 0) {
          try {
            return JSON.parse(candidate.slice(start, index + 1));
          } catch {
            break;
          }
        }
      }
    }
  }
  return null;
}

/** Options of `askForJson`. */
export interface AskForJsonOptions<Schema extends z.ZodType> {
  /** The chat model (e.g. `createChatPolicy({ baseURL, model })` of `@hs/chat-policy`). */
  model: PolicyV1;
  /** Conversation to send. */
  messages: ChatMessage[];
  /** Schema the JSON answer must satisfy. */
  schema: Schema;
  /** Time limit in milliseconds. */
  timeoutMs: number;
  /** Seed of the call. */
  seed: number;
  /** Cancels the call. */
  signal?: AbortSignal;
}

/**
 * Asks a chat model (any `PolicyV1`, greedy mode, text protocol) and reads a JSON object from its reply.
 * Never throws for a late or unreadable answer: it reports the reason (`timeout after N ms`, `no JSON
 * object in the reply`, the first schema problem, or the transport error).
 */
export async function askForJson<Schema extends z.ZodType>(
  options: AskForJsonOptions<Schema>,
): Promise<JsonAnswer<z.infer<Schema>>> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new TimeoutError(`timeout after ${options.timeoutMs} ms`);
      controller.abort(error);
      reject(error);
    }, options.timeoutMs);
  });
  let raw: string;
  try {
    const action = await Promise.race([
      options.model.act(
        { messages: options.messages, tools: [], actionFormat: "text" },
        { seed: options.seed, mode: "greedy", signal: controller.signal },
      ),
      late,
    ]);
    raw = action.content;
    if (action.malformed !== undefined && raw.trim() === "") {
      return { ok: false, reason: `unreadable reply: ${action.malformed}`, raw, timedOut: false };
    }
  } catch (error) {
    const timedOut =
      error instanceof TimeoutError ||
      (HarnessSError.isInstance(error) && error.name === "HarnessSTimeoutError");
    const message = error instanceof Error ? error.message : String(error);
    // the model's own time limit (with its retries) may end the call before this one: say which
    const reason = !timedOut
      ? `request failed: ${message}`
      : message.startsWith("timeout after")
        ? `timeout after ${options.timeoutMs} ms`
        : `timed out: ${message}`;
    return { ok: false, reason, raw: null, timedOut };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
  const json = extractJsonObject(raw);
  if (json === null) {
    return { ok: false, reason: `no JSON object in the reply: "${raw.slice(0, 120)}"`, raw, timedOut: false };
  }
  const parsed = options.schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      reason: `answer does not match the expected JSON: ${issue?.path.map(String).join(".") || "(root)"}: ${issue?.message ?? "invalid"}`,
      raw,
      timedOut: false,
    };
  }
  return { ok: true, value: parsed.data, raw };
}
