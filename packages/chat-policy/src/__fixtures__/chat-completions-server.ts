import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Test equipment: a small HTTP server on 127.0.0.1 that speaks the chat-completions protocol from a
 * script of replies and records every request. It runs no model.
 */

/** One scripted answer of the test server. */
export interface ScriptedReply {
  /** HTTP status. Default 200. */
  status?: number;
  /** Response headers. */
  headers?: Record<string, string>;
  /** JSON body (serialised). Ignored when `rawBody` is set. */
  body?: unknown;
  /** Body sent byte for byte. */
  rawBody?: string;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
  /** Drop the connection without answering (a network error for the client). */
  destroySocket?: boolean;
  /** Send the status, the headers and the start of the body, then never finish the body. */
  stallBody?: boolean;
}

/** A request the test server received. */
export interface RecordedRequest {
  /** HTTP method. */
  method: string;
  /** Request path. */
  path: string;
  /** Request headers (lower-case names). */
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  /** `performance.now()` when the request arrived. */
  receivedAt: number;
}

/** The replies, in order, or a function choosing the reply of request number `index` (0-based). */
export type ReplyScript =
  | readonly ScriptedReply[]
  | ((request: RecordedRequest, index: number) => ScriptedReply);

/** A running test server. */
export interface ChatCompletionsTestServer {
  /** Base URL to give the chat policy, ending in `/v1`. */
  readonly baseURL: string;
  /** Every request received so far. */
  readonly requests: RecordedRequest[];
  /** Requests being answered now. */
  readonly inFlight: number;
  /** Most requests answered at once so far. */
  readonly maxInFlight: number;
  /** Requests closed before a full answer was sent (the client went away, or a scripted drop). */
  readonly abandoned: number;
  /** Replaces the script (and restarts its count). */
  setScript(script: ReplyScript): void;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

/** Options of `chatCompletionBody`. */
export interface CompletionBodyOptions {
  /** Assistant text (null when only tool calls). */
  content?: string | null;
  /** Tool calls; `arguments` is sent as given (a string, possibly not JSON). */
  toolCalls?: Array<{ id: string; name: string; arguments: string }>;
  /** Per-token log-probability entries of `choices[0].logprobs.content`. */
  logprobs?: Array<Record<string, unknown>>;
  /** `choices[0].token_ids` (vLLM `return_token_ids`). */
  tokenIds?: number[];
  /** `finish_reason`. Default `stop`, or `tool_calls` when tool calls are given. */
  finishReason?: string;
  /** Usage block. Default 10 prompt and 5 completion tokens. */
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Model name reported. Default `test-model`. */
  model?: string;
}

/** Builds a chat-completions response body. */
export function chatCompletionBody(options: CompletionBodyOptions = {}): Record<string, unknown> {
  const message: Record<string, unknown> = { role: "assistant", content: options.content ?? null };
  if (options.toolCalls !== undefined) {
    message.tool_calls = options.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  const choice: Record<string, unknown> = {
    index: 0,
    message,
    finish_reason: options.finishReason ?? (options.toolCalls === undefined ? "stop" : "tool_calls"),
    logprobs: options.logprobs === undefined ? null : { content: options.logprobs },
  };
  if (options.tokenIds !== undefined) choice.token_ids = options.tokenIds;
  const usage = options.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1_700_000_000,
    model: options.model ?? "test-model",
    choices: [choice],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function parseMaybeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Starts the test server on 127.0.0.1 at a free port. */
export async function startChatCompletionsServer(
  initialScript: ReplyScript = [],
): Promise<ChatCompletionsTestServer> {
  let script = initialScript;
  let scriptStart = 0;
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let abandoned = 0;

  const pickReply = (request: RecordedRequest, index: number): ScriptedReply => {
    if (typeof script === "function") return script(request, index);
    const reply = script[index];
    if (reply !== undefined) return reply;
    return {
      status: 400,
      body: { error: { message: `test server: no scripted reply for request ${index}` } },
    };
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    response.on("close", () => {
      inFlight -= 1;
      if (!response.writableFinished) abandoned += 1;
    });
    const text = await readBody(request);
    const recorded: RecordedRequest = {
      method: request.method ?? "",
      path: request.url ?? "",
      headers: request.headers,
      body: parseMaybeJson(text),
      receivedAt: performance.now(),
    };
    requests.push(recorded);
    if (recorded.path !== "/v1/chat/completions" || recorded.method !== "POST") {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ error: { message: `test server: no route ${recorded.method} ${recorded.path}` } }),
      );
      return;
    }
    const reply = pickReply(recorded, requests.length - 1 - scriptStart);
    if (reply.delayMs !== undefined && reply.delayMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, reply.delayMs);
        response.on("close", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (response.destroyed) return;
    }
    if (reply.destroySocket === true) {
      request.socket.destroy();
      return;
    }
    const raw = reply.rawBody ?? JSON.stringify(reply.body ?? chatCompletionBody({ content: "" }));
    response.writeHead(reply.status ?? 200, {
      "content-type": reply.rawBody === undefined ? "application/json" : "text/plain",
      ...reply.headers,
    });
    if (reply.stallBody === true) {
      response.write(raw.slice(0, Math.max(1, Math.floor(raw.length / 2))));
      return;
    }
    response.end(raw);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    get abandoned() {
      return abandoned;
    },
    setScript(next) {
      script = next;
      scriptStart = requests.length;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
