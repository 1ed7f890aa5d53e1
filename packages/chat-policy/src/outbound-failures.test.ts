import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ApiCallError, type PolicyView, TimeoutError } from "@hs/spec";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type ChatCompletionsTestServer,
  chatCompletionBody,
  startChatCompletionsServer,
} from "./__fixtures__/chat-completions-server.js";
import {
  type ChatFailureNotice,
  type ChatPolicyOptions,
  type ChatRetryNotice,
  createChatPolicy,
} from "./index.js";

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

/** A policy with fast backoff that records every notice it reports. */
function reporting(overrides: Partial<ChatPolicyOptions> = {}) {
  const retries: ChatRetryNotice[] = [];
  const failures: ChatFailureNotice[] = [];
  const chat = createChatPolicy({
    baseURL: server.baseURL,
    model: "test-model",
    env: {},
    initialBackoffMs: 5,
    maxBackoffMs: 20,
    timeoutMs: 5_000,
    onRetry: (notice) => retries.push(notice),
    onError: (notice) => failures.push(notice),
    ...overrides,
  });
  return { chat, retries, failures };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the promise to reject");
}

/** A port on 127.0.0.1 that nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe("outbound failures: time limits", () => {
  it("ends a call to a server that never answers at the time limit, naming it", async () => {
    server.setScript(() => ({ delayMs: 60_000 }));
    const { chat, retries, failures } = reporting({ timeoutMs: 200, maxRetries: 1 });
    const started = performance.now();
    const error = await rejection(chat.act(textView, { seed: 1 }));
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toContain("took longer than the time limit timeoutMs = 200 ms");
    expect(error.message).toContain("waiting for the response headers");
    expect(error.message).toContain("gave up after 2 attempts");
    expect(elapsed).toBeGreaterThanOrEqual(395);
    expect(elapsed).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(2);
    expect(retries.map((notice) => notice.error)).toEqual([expect.any(TimeoutError)]);
    expect(failures).toEqual([{ attempts: 2, error }]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.abandoned).toBe(2);
  });

  it("ends a call whose body stalls after the headers (the SDK's own timeout stops at the headers)", async () => {
    server.setScript(() => ({ stallBody: true, body: chatCompletionBody({ content: "never finished" }) }));
    const { chat, failures } = reporting({ timeoutMs: 300, maxRetries: 0 });
    const started = performance.now();
    const error = await rejection(chat.act(textView, { seed: 1 }));
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toContain("timeoutMs = 300 ms reading the response body");
    expect(elapsed).toBeGreaterThanOrEqual(295);
    expect(elapsed).toBeLessThan(1_500);
    expect(failures).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.abandoned).toBe(1);
    expect(server.inFlight).toBe(0);
  });
});

describe("outbound failures: servers that fail", () => {
  it("reports a closed port with the endpoint and the system error", async () => {
    const port = await closedPort();
    const { chat, retries, failures } = reporting({ baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 1 });
    const error = await rejection(chat.act(textView, { seed: 1 }));
    expect(error).toBeInstanceOf(ApiCallError);
    expect((error as ApiCallError).status).toBeUndefined();
    expect((error as ApiCallError).isRetryable).toBe(true);
    expect(error.message).toContain(`request to http://127.0.0.1:${port}/v1/chat/completions failed`);
    expect(error.message).toContain("ECONNREFUSED");
    expect(error.message).toContain("gave up after 2 attempts");
    expect(retries).toHaveLength(1);
    expect(failures).toEqual([{ attempts: 2, error }]);
  });

  it("keeps the body of a 500 that has no OpenAI error field, and makes no hidden SDK retries", async () => {
    server.setScript(() => ({ status: 500, body: { detail: "CUDA out of memory" } }));
    const { chat, retries, failures } = reporting({ maxRetries: 2 });
    const error = await rejection(chat.act(textView, { seed: 1 }));
    expect(error).toBeInstanceOf(ApiCallError);
    expect((error as ApiCallError).status).toBe(500);
    expect((error as ApiCallError).responseBody).toBe('{"detail":"CUDA out of memory"}');
    expect(error.message).toContain('answered HTTP 500: {"detail":"CUDA out of memory"}');
    expect(error.message).toContain("gave up after 3 attempts");
    expect(server.requests).toHaveLength(3);
    expect(retries.map((notice) => notice.attempt)).toEqual([1, 2]);
    expect(failures.map((notice) => notice.attempts)).toEqual([3]);
  });

  it("turns garbage JSON served as application/json into a malformed action, without retrying", async () => {
    server.setScript([
      { rawBody: '{"choices": [{"message": ', headers: { "content-type": "application/json" } },
      { rawBody: "[]", headers: { "content-type": "application/json" } },
    ]);
    const { chat, retries, failures } = reporting();
    const truncated = await chat.act(textView, { seed: 1 });
    const array = await chat.act(textView, { seed: 1 });
    expect(truncated.malformed).toMatch(
      /^the server's reply is not JSON: "\{\\"choices\\": \[\{\\"message\\":"/,
    );
    expect(array.malformed).toMatch(/^the reply is not a chat completion/);
    for (const action of [truncated, array]) expect(action).toMatchObject({ content: "", logprob: null });
    expect(server.requests).toHaveLength(2);
    expect(retries).toHaveLength(0);
    expect(failures).toHaveLength(0);
  });

  it("honours retry-after-ms (the OpenAI spelling) on a 503 (measured)", async () => {
    server.setScript([
      { status: 503, headers: { "retry-after-ms": "400" } },
      { body: chatCompletionBody({ content: "ok" }) },
    ]);
    const { chat, retries } = reporting();
    const action = await chat.act(textView, { seed: 1 });
    expect(action.content).toBe("ok");
    expect(retries.map((notice) => notice.delayMs)).toEqual([400]);
    const [first, second] = server.requests;
    const waited = second!.receivedAt - first!.receivedAt;
    expect(waited).toBeGreaterThanOrEqual(390);
    expect(waited).toBeLessThan(1_200);
  });
});

describe("outbound failures: each failure reported once", () => {
  it("reports retried attempts once through onRetry and a recovered call never through onError", async () => {
    server.setScript([
      { status: 500, body: { error: { message: "engine restarting" } } },
      { status: 429, headers: { "retry-after": "0" } },
      { body: chatCompletionBody({ content: "third time" }) },
    ]);
    const { chat, retries, failures } = reporting();
    const action = await chat.act(textView, { seed: 1 });
    expect(action.content).toBe("third time");
    expect(action.trace).toMatchObject({ attempts: 3 });
    expect(retries.map((notice) => [notice.attempt, (notice.error as ApiCallError).status])).toEqual([
      [1, 500],
      [2, 429],
    ]);
    expect(failures).toHaveLength(0);
    expect(chat.stats).toEqual({
      calls: 1,
      succeeded: 1,
      failed: 0,
      failedAttempts: 2,
      retries: 2,
      cancelled: 0,
    });
  });

  it("reports every failed attempt of a failed call exactly once across onRetry and onError", async () => {
    server.setScript(() => ({ status: 503, body: { error: { message: "warming up" } } }));
    const { chat, retries, failures } = reporting({ maxRetries: 2 });
    const error = await rejection(chat.act(textView, { seed: 1 }));
    expect(retries.map((notice) => notice.attempt)).toEqual([1, 2]);
    expect(failures).toEqual([{ attempts: 3, error }]);
    expect(retries.length + failures.length).toBe(server.requests.length);
    server.setScript([{ status: 400, body: { error: { message: "bad field" } } }]);
    const rejected = await rejection(chat.act(textView, { seed: 2 }));
    expect(retries).toHaveLength(2);
    expect(failures.map((notice) => notice.error)).toEqual([error, rejected]);
    expect(chat.stats).toMatchObject({ calls: 2, failed: 2, failedAttempts: 4, retries: 2 });
  });

  it("reports nothing for a cancelled call", async () => {
    server.setScript(() => ({ delayMs: 5_000 }));
    const { chat, retries, failures } = reporting();
    const controller = new AbortController();
    const call = chat.act(textView, { seed: 1, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await rejection(call);
    expect(retries).toHaveLength(0);
    expect(failures).toHaveLength(0);
    expect(chat.stats).toMatchObject({ calls: 1, cancelled: 1, failed: 0 });
  });
});

describe("the SDK client", () => {
  it("reads no OpenAI environment variable and sends no key when none is configured", async () => {
    const saved = { ...process.env };
    process.env.OPENAI_ORG_ID = "org-from-env";
    process.env.OPENAI_PROJECT_ID = "proj-from-env";
    process.env.OPENAI_BASE_URL = "http://127.0.0.1:9/v1";
    try {
      server.setScript([{ body: chatCompletionBody({ content: "ok" }) }]);
      const { chat } = reporting();
      expect((await chat.act(textView, { seed: 1 })).content).toBe("ok");
      const headers = server.requests[0]!.headers;
      expect(headers.authorization).toBeUndefined();
      expect(headers["openai-organization"]).toBeUndefined();
      expect(headers["openai-project"]).toBeUndefined();
      expect(headers["content-type"]).toBe("application/json");
    } finally {
      process.env = saved;
    }
  });

  it("sends through the injected fetch, with the caller's headers and a caller's own Authorization", async () => {
    server.setScript([{ body: chatCompletionBody({ content: "via proxy" }) }]);
    const seen: string[] = [];
    const { chat } = reporting({
      fetch: (url, init) => {
        seen.push(`${init.method} ${url}`);
        return fetch(url, init);
      },
      headers: { "x-team": "harness-s", Authorization: "Bearer from-headers" },
    });
    expect((await chat.act(textView, { seed: 1 })).content).toBe("via proxy");
    expect(seen).toEqual([`POST ${server.baseURL}/chat/completions`]);
    const headers = server.requests[0]!.headers;
    expect(headers["x-team"]).toBe("harness-s");
    expect(headers.authorization).toBe("Bearer from-headers");
  });

  it("sends only what the view holds: the SDK adds no body field, and no task field can reach the server", async () => {
    server.setScript([{ body: chatCompletionBody({ content: "ok" }) }]);
    const { chat } = reporting();
    await chat.act(textView, { seed: 4 });
    const body = server.requests[0]!.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([
      "logprobs",
      "messages",
      "model",
      "seed",
      "stream",
      "temperature",
    ]);
    expect(body.messages).toEqual([{ role: "user", content: "Say hi." }]);
  });
});
