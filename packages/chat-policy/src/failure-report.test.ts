import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type ChatCompletionsTestServer,
  chatCompletionBody,
  startChatCompletionsServer,
} from "./__fixtures__/chat-completions-server.js";
import { createChatPolicy, reportFailures, summarizeFailures } from "./index.js";

let server: ChatCompletionsTestServer;

beforeEach(async () => {
  server = await startChatCompletionsServer();
});

afterEach(async () => {
  await server.close();
});

const view = {
  actionFormat: "text" as const,
  tools: [],
  messages: [{ role: "user" as const, content: "hi" }],
};

describe("failure lines", () => {
  it("writes each failure once and a closing count, over HTTP", async () => {
    server.setScript([
      { status: 503, body: { error: { message: "warming up" } } },
      { body: chatCompletionBody({ content: "ok" }) },
      { status: 400, body: { error: { message: "unknown field top_k" } } },
    ]);
    const lines: string[] = [];
    const chat = createChatPolicy({
      baseURL: server.baseURL,
      model: "m",
      env: {},
      initialBackoffMs: 4,
      maxBackoffMs: 4,
      random: () => 1,
      ...reportFailures("llm judge", (line) => lines.push(line)),
    });
    expect(summarizeFailures("llm judge", chat.stats)).toBeUndefined();
    await chat.act(view, { seed: 1 });
    await chat.act(view, { seed: 2 }).catch(() => undefined);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^llm judge: attempt 1 failed, retrying in 4 ms: chat completions at .* HTTP 503/,
    );
    expect(lines[1]).toMatch(/^llm judge: call failed after 1 attempt: .*HTTP 400: .*unknown field top_k/);
    expect(summarizeFailures("llm judge", chat.stats)).toBe(
      "llm judge: 1 of 2 calls failed (2 failed attempts, 1 retried)",
    );
  });
});
