import type { PolicyView } from "@hs/spec";
import { ApiCallError, CancelledError, HarnessSError, InvalidInputError, TimeoutError } from "@hs/spec";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type ChatCompletionsTestServer,
  chatCompletionBody,
  startChatCompletionsServer,
} from "./__fixtures__/chat-completions-server.js";
import { type ChatPolicyOptions, type ChatRetryNotice, createChatPolicy } from "./index.js";

const sqlTool = {
  name: "execute_sql",
  description: "Run one SQL statement.",
  parameters: { type: "object", properties: { sql: { type: "string" } }, required: ["sql"] },
};

const toolView: PolicyView = {
  actionFormat: "tool-calls",
  tools: [sqlTool],
  messages: [
    { role: "system", content: "You answer questions with SQL." },
    { role: "user", content: "How many rows are in t?" },
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "call_1", name: "execute_sql", arguments: { sql: "SELECT COUNT(*) FROM t" } }],
    },
    { role: "tool", content: "[(3,)]", toolCallId: "call_1", name: "execute_sql" },
  ],
};

const textView: PolicyView = {
  actionFormat: "text",
  tools: [],
  messages: [{ role: "user", content: "Say hi." }],
};

let server: ChatCompletionsTestServer;

// The first request of a process spends a few hundred ms loading fetch and the SDK; pay it before the
// timed tests.
beforeAll(async () => {
  const warmUp = await startChatCompletionsServer([{ body: chatCompletionBody({ content: "warm" }) }]);
  await createChatPolicy({ baseURL: warmUp.baseURL, model: "m", env: {} }).act(
    { actionFormat: "text", tools: [], messages: [{ role: "user", content: "hi" }] },
    { seed: 0 },
  );
  await warmUp.close();
});

beforeEach(async () => {
  server = await startChatCompletionsServer();
});

afterEach(async () => {
  await server.close();
});

function policy(overrides: Partial<ChatPolicyOptions> = {}) {
  return createChatPolicy({
    baseURL: server.baseURL,
    model: "test-model",
    env: {},
    initialBackoffMs: 5,
    maxBackoffMs: 20,
    timeoutMs: 5_000,
    ...overrides,
  });
}

/** Waits until `condition` holds (polling every 5 ms), failing after `limitMs`. */
async function until(condition: () => boolean, limitMs = 5_000): Promise<void> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > limitMs) throw new Error(`condition not met within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}

describe("chat policy over HTTP: request and reply", () => {
  it("round-trips native tool calls", async () => {
    server.setScript([
      {
        body: chatCompletionBody({
          content: "Committing.",
          toolCalls: [{ id: "call_2", name: "commit_final_answer", arguments: '{"answer":["3"]}' }],
          usage: { prompt_tokens: 42, completion_tokens: 7 },
        }),
      },
    ]);
    const chat = policy({ apiKey: "secret-key", maxTokens: 256 });
    const action = await chat.act(toolView, { seed: 7 });

    expect(action.toolCalls).toEqual([
      {
        id: "call_2",
        name: "commit_final_answer",
        arguments: { answer: ["3"] },
        argumentsText: '{"answer":["3"]}',
      },
    ]);
    expect(action.content).toBe("Committing.");
    expect(action.finishReason).toBe("tool_calls");
    expect(action.usage).toEqual({ promptTokens: 42, completionTokens: 7 });
    expect(action.malformed).toBeUndefined();
    expect(action.logprob).toBeNull();
    expect(chat.id).toBe("openai-compatible:test-model");

    const [request] = server.requests;
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.headers.authorization).toBe("Bearer secret-key");
    expect(request?.body).toMatchObject({
      model: "test-model",
      seed: 7,
      temperature: 1,
      logprobs: true,
      max_tokens: 256,
      stream: false,
      tools: [{ type: "function", function: sqlTool }],
      messages: [
        { role: "system", content: "You answer questions with SQL." },
        { role: "user", content: "How many rows are in t?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_1",
              type: "function",
              function: { name: "execute_sql", arguments: '{"sql":"SELECT COUNT(*) FROM t"}' },
            },
          ],
        },
        { role: "tool", content: "[(3,)]", tool_call_id: "call_1" },
      ],
    });
  });

  it("sends no tools for a text protocol and temperature 0 in greedy mode", async () => {
    server.setScript([{ body: chatCompletionBody({ content: 'Action: Answer\nFinal Answer: ["hi"]' }) }]);
    const action = await policy({ temperature: 0.7, topP: 0.9 }).act(
      { ...textView, tools: [sqlTool] },
      { seed: 3, mode: "greedy" },
    );
    expect(action.content).toBe('Action: Answer\nFinal Answer: ["hi"]');
    expect(action.toolCalls).toBeUndefined();
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body.tools).toBeUndefined();
    expect(body.temperature).toBe(0);
    expect(body.top_p).toBeUndefined();
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("captures per-token logprobs and their sum", async () => {
    server.setScript([
      {
        body: chatCompletionBody({
          content: "Hello there",
          logprobs: [
            { token: "Hello", logprob: -0.25, bytes: [72, 101, 108, 108, 111], top_logprobs: [] },
            { token: " there", logprob: -1.5, bytes: [32], top_logprobs: [] },
          ],
        }),
      },
    ]);
    const action = await policy().act(textView, { seed: 1 });
    expect(action.tokens).toEqual([
      { text: "Hello", logprob: -0.25 },
      { text: " there", logprob: -1.5 },
    ]);
    expect(action.logprob).toBeCloseTo(-1.75, 10);
  });

  it("captures token ids in each form servers send them", async () => {
    server.setScript([
      // vLLM with return_tokens_as_token_ids: the token text is "token_id:N".
      {
        body: chatCompletionBody({
          content: "ab",
          logprobs: [
            { token: "token_id:17", logprob: -0.5 },
            { token: "token_id:4", logprob: -0.25 },
          ],
        }),
      },
      // llama.cpp server: a numeric id beside the token text.
      {
        body: chatCompletionBody({
          content: "ab",
          logprobs: [
            { id: 9, token: "a", logprob: -0.1 },
            { id: 11, token: "b", logprob: -0.2 },
          ],
        }),
      },
      // vLLM with return_token_ids: ids in choices[0].token_ids.
      {
        body: chatCompletionBody({
          content: "ab",
          tokenIds: [101, 102],
          logprobs: [
            { token: "a", logprob: -1 },
            { token: "b", logprob: -2 },
          ],
        }),
      },
    ]);
    const chat = policy({ returnTokenIds: true });
    const textReply = await chat.act(textView, { seed: 1 });
    const llamaCpp = await chat.act(textView, { seed: 1 });
    const returned = await chat.act(textView, { seed: 1 });
    expect(textReply.tokens).toEqual([
      { id: 17, logprob: -0.5 },
      { id: 4, logprob: -0.25 },
    ]);
    expect(textReply.logprob).toBeCloseTo(-0.75, 10);
    expect(llamaCpp.tokens).toEqual([
      { id: 9, text: "a", logprob: -0.1 },
      { id: 11, text: "b", logprob: -0.2 },
    ]);
    expect(returned.tokens).toEqual([
      { id: 101, text: "a", logprob: -1 },
      { id: 102, text: "b", logprob: -2 },
    ]);
    expect(returned.trace).toMatchObject({ tokenIds: [101, 102], attempts: 1 });
    expect((server.requests[0]!.body as Record<string, unknown>).return_token_ids).toBe(true);
  });
});

describe("chat policy over HTTP: failures", () => {
  it("retries after a 500 and succeeds", async () => {
    server.setScript([
      { status: 500, body: { error: { message: "engine overloaded" } } },
      { body: chatCompletionBody({ content: "ok" }) },
    ]);
    const retries: ChatRetryNotice[] = [];
    const action = await policy({ onRetry: (notice) => retries.push(notice) }).act(textView, { seed: 1 });
    expect(action.content).toBe("ok");
    expect(action.trace).toMatchObject({ attempts: 2 });
    expect(server.requests).toHaveLength(2);
    expect(retries).toHaveLength(1);
    expect((retries[0]!.error as ApiCallError).status).toBe(500);
    expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(2.5);
    expect(retries[0]?.delayMs).toBeLessThanOrEqual(5);
  });

  it("honours Retry-After in seconds on a 429 (measured)", async () => {
    server.setScript([
      { status: 429, headers: { "retry-after": "1" }, body: { error: { message: "rate limited" } } },
      { body: chatCompletionBody({ content: "ok" }) },
    ]);
    const action = await policy().act(textView, { seed: 1 });
    expect(action.content).toBe("ok");
    const [first, second] = server.requests;
    const waited = second!.receivedAt - first!.receivedAt;
    expect(waited).toBeGreaterThanOrEqual(990);
    expect(waited).toBeLessThan(1_800);
  });

  it("honours Retry-After as an HTTP date on a 429 (measured)", async () => {
    const date = "Wed, 21 Oct 2037 07:28:00 GMT";
    server.setScript([
      { status: 429, headers: { "retry-after": date } },
      { body: chatCompletionBody({ content: "ok" }) },
    ]);
    const now = () => Date.parse(date) - 300;
    await policy({ now }).act(textView, { seed: 1 });
    const [first, second] = server.requests;
    const waited = second!.receivedAt - first!.receivedAt;
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(1_000);
  });

  it("gives up at once when Retry-After is longer than maxRetryAfterMs", async () => {
    server.setScript([{ status: 429, headers: { "retry-after": "120" } }]);
    const started = performance.now();
    const error = await rejection(policy({ maxRetryAfterMs: 1_000 }).act(textView, { seed: 1 }));
    expect(performance.now() - started).toBeLessThan(500);
    expect(error).toBeInstanceOf(ApiCallError);
    expect((error as ApiCallError).status).toBe(429);
    expect((error as ApiCallError).retryAfterMs).toBe(120_000);
    expect((error as Error).message).toContain("asked to wait 120000 ms, more than maxRetryAfterMs 1000");
    expect((error as ApiCallError).isRetryable).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it("surfaces a non-retryable 4xx as ApiCallError with status and body, without retrying", async () => {
    server.setScript([{ status: 400, body: { error: { message: "unknown field top_k" } } }]);
    const error = await rejection(policy().act(textView, { seed: 1 }));
    expect(error).toBeInstanceOf(ApiCallError);
    expect((error as ApiCallError).status).toBe(400);
    expect((error as ApiCallError).isRetryable).toBe(false);
    expect((error as ApiCallError).responseBody).toContain("unknown field top_k");
    expect((error as Error).message).toContain("HTTP 400");
    expect(server.requests).toHaveLength(1);
  });

  it("stops after maxRetries and reports the attempts", async () => {
    server.setScript(() => ({ status: 503, body: { error: { message: "warming up" } } }));
    const error = await rejection(policy({ maxRetries: 2 }).act(textView, { seed: 1 }));
    expect(error).toBeInstanceOf(ApiCallError);
    expect((error as ApiCallError).status).toBe(503);
    expect((error as Error).message).toContain("gave up after 3 attempts");
    expect(server.requests).toHaveLength(3);
  });

  it("retries after a dropped connection", async () => {
    server.setScript([{ destroySocket: true }, { body: chatCompletionBody({ content: "ok" }) }]);
    const retries: ChatRetryNotice[] = [];
    const action = await policy({ onRetry: (notice) => retries.push(notice) }).act(textView, { seed: 1 });
    expect(action.content).toBe("ok");
    expect(retries[0]?.error).toBeInstanceOf(ApiCallError);
    expect((retries[0]!.error as ApiCallError).status).toBeUndefined();
  });

  it("turns a slow reply into a retryable TimeoutError", async () => {
    server.setScript(() => ({ delayMs: 3_000, body: chatCompletionBody({ content: "late" }) }));
    const started = performance.now();
    const error = await rejection(policy({ timeoutMs: 100, maxRetries: 0 }).act(textView, { seed: 1 }));
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).isRetryable).toBe(true);
    expect(HarnessSError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("100 ms");
    expect(elapsed).toBeGreaterThanOrEqual(95);
    expect(elapsed).toBeLessThan(1_000);
  });

  it("retries a timed-out attempt", async () => {
    server.setScript([{ delayMs: 3_000 }, { body: chatCompletionBody({ content: "second try" }) }]);
    const action = await policy({ timeoutMs: 150, maxRetries: 1 }).act(textView, { seed: 1 });
    expect(action.content).toBe("second try");
    expect(server.requests).toHaveLength(2);
  });
});

describe("chat policy over HTTP: unreadable replies become malformed actions", () => {
  it("keeps content and logprobs when tool-call arguments are not JSON", async () => {
    server.setScript([
      {
        body: chatCompletionBody({
          content: "Let me query.",
          toolCalls: [{ id: "call_9", name: "execute_sql", arguments: '{"sql": "SELECT' }],
          logprobs: [{ token: "Let", logprob: -0.5 }],
          finishReason: "length",
        }),
      },
    ]);
    const action = await policy().act(toolView, { seed: 1 });
    expect(action.malformed).toMatch(/arguments of tool call 0 \(execute_sql\) are not valid JSON/);
    expect(action.malformed).toContain("token limit");
    expect(action.toolCalls).toBeUndefined();
    expect(action.content).toBe("Let me query.");
    expect(action.logprob).toBe(-0.5);
    expect(action.finishReason).toBe("length");
    expect((action.trace as { rawToolCalls?: unknown }).rawToolCalls).toBeDefined();
  });

  it("reports an empty choices list, a non-JSON body and an error object", async () => {
    server.setScript([
      { body: { id: "x", object: "chat.completion", choices: [] } },
      { rawBody: "<html><body>502 Bad Gateway</body></html>" },
      { body: { error: { message: "context length exceeded", code: 400 } } },
      { body: { choices: [{ message: "not an object" }] } },
    ]);
    const chat = policy();
    const empty = await chat.act(textView, { seed: 1 });
    const html = await chat.act(textView, { seed: 1 });
    const errorObject = await chat.act(textView, { seed: 1 });
    const badChoice = await chat.act(textView, { seed: 1 });
    expect(empty.malformed).toBe("the reply has an empty choices list");
    expect(html.malformed).toMatch(/^the server's reply is not JSON: "<html><body>502 Bad Gateway/);
    expect(errorObject.malformed).toMatch(/error object: .*context length exceeded/);
    expect(badChoice.malformed).toMatch(/^choice 0 of the reply is unreadable \(message:/);
    for (const action of [empty, html, errorObject, badChoice]) {
      expect(action).toMatchObject({ content: "", logprob: null });
    }
  });
});

describe("chat policy over HTTP: concurrency and cancellation", () => {
  it("keeps at most maxConcurrency requests in flight across calls of one instance", async () => {
    server.setScript(() => ({ delayMs: 60, body: chatCompletionBody({ content: "ok" }) }));
    const chat = policy({ maxConcurrency: 2 });
    const calls = Array.from({ length: 6 }, (_, seed) => chat.act(textView, { seed }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(chat.inFlight).toBe(2);
    expect(chat.queued).toBe(4);
    const actions = await Promise.all(calls);
    expect(actions.map((action) => action.content)).toEqual(Array(6).fill("ok"));
    expect(server.requests).toHaveLength(6);
    expect(server.maxInFlight).toBe(2);
    expect(chat.inFlight).toBe(0);
  });

  it("cancels a request in flight promptly", async () => {
    server.setScript(() => ({ delayMs: 5_000 }));
    const controller = new AbortController();
    const call = policy().act(textView, { seed: 1, signal: controller.signal });
    // Abort once the server holds the request (on a loaded machine 50 ms may not be enough to send it).
    await until(() => server.requests.length === 1);
    const started = performance.now();
    controller.abort();
    const error = await rejection(call);
    expect(error).toBeInstanceOf(CancelledError);
    expect(performance.now() - started).toBeLessThan(500);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.abandoned).toBe(1);
    expect(server.inFlight).toBe(0);
  });

  it("cancels while waiting to retry and while queued for a slot", async () => {
    server.setScript(() => ({ status: 429, headers: { "retry-after": "30" } }));
    const sleeping = new AbortController();
    const backoff = policy({ maxRetryAfterMs: 60_000 }).act(textView, { seed: 1, signal: sleeping.signal });
    await until(() => server.requests.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 80));
    const started = performance.now();
    sleeping.abort();
    expect(await rejection(backoff)).toBeInstanceOf(CancelledError);
    expect(performance.now() - started).toBeLessThan(500);
    expect(server.requests).toHaveLength(1);

    server.setScript(() => ({ delayMs: 200, body: chatCompletionBody({ content: "ok" }) }));
    const chat = policy({ maxConcurrency: 1 });
    const first = chat.act(textView, { seed: 1 });
    const queued = new AbortController();
    const second = chat.act(textView, { seed: 2, signal: queued.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(chat.queued).toBe(1);
    queued.abort();
    expect(await rejection(second)).toBeInstanceOf(CancelledError);
    expect((await first).content).toBe("ok");
    expect(server.requests).toHaveLength(2);
  });

  it("rejects at once when the signal is already aborted", async () => {
    const error = await rejection(policy().act(textView, { seed: 1, signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(CancelledError);
    expect(server.requests).toHaveLength(0);
  });
});

describe("chat policy options", () => {
  it("reads the base URL and API key from the environment", async () => {
    server.setScript([{ body: chatCompletionBody({ content: "ok" }) }]);
    const chat = createChatPolicy({
      model: "m",
      env: {
        HS_OPENAI_BASE_URL: `${server.baseURL}/`,
        HS_OPENAI_API_KEY: "hs-key",
        OPENAI_API_KEY: "openai-key",
      },
    });
    expect(chat.settings.endpoint).toBe(`${server.baseURL}/chat/completions`);
    await chat.act(textView, { seed: 1 });
    expect(server.requests[0]?.headers.authorization).toBe("Bearer hs-key");
    const fallback = createChatPolicy({
      model: "m",
      baseURL: server.baseURL,
      env: { OPENAI_API_KEY: "openai-key" },
    });
    expect(fallback.settings.apiKey).toBe("openai-key");
  });

  it("rejects bad options naming the field", () => {
    const cases: Array<[ChatPolicyOptions, string]> = [
      [{ model: "m", env: {} }, "baseURL"],
      [{ model: "m", env: { HS_OPENAI_BASE_URL: "localhost:8000" } }, "baseURL"],
      [{ model: "m", baseURL: "ftp://host/v1", env: {} }, "baseURL"],
      [{ model: "", baseURL: "http://127.0.0.1:1/v1", env: {} }, "model"],
      [{ model: "m", baseURL: "http://127.0.0.1:1/v1", temperature: 3, env: {} }, "temperature"],
      [{ model: "m", baseURL: "http://127.0.0.1:1/v1", maxConcurrency: 0, env: {} }, "maxConcurrency"],
      [{ model: "m", baseURL: "http://127.0.0.1:1/v1", fetch: "no" as never, env: {} }, "fetch"],
    ];
    for (const [options, field] of cases) {
      let caught: unknown;
      try {
        createChatPolicy(options);
      } catch (error) {
        caught = error;
      }
      expect(caught, field).toBeInstanceOf(InvalidInputError);
      expect((caught as InvalidInputError).location.field, JSON.stringify(options)).toBe(field);
    }
    expect(() =>
      createChatPolicy({ model: "m", baseURL: "http://127.0.0.1:1/v1", temprature: 1 } as ChatPolicyOptions),
    ).toThrow(/unrecognized key/i);
  });

  it("rejects a tool message without toolCallId before sending anything", async () => {
    const view: PolicyView = { ...textView, messages: [{ role: "tool", content: "result" }] };
    const error = await rejection(policy().act(view, { seed: 1 }));
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).location.field).toBe("view.messages.0.toolCallId");
    expect(server.requests).toHaveLength(0);
  });
});
