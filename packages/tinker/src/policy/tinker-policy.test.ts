import { describe, expect, it } from "vitest";
import { startTinyStack } from "../__fixtures__/tiny-stack.js";
import { sampleRequestSchema } from "../protocol/requests.js";
import { tinkerTraceSchema } from "./tinker-policy.js";
import { parseToolCallBlocks } from "./tool-call-blocks.js";

describe("TinkerSamplerPolicy", () => {
  it("samples the rendered view with the template's stop token and records ids, logprobs and prompt tokens", async () => {
    const stack = await startTinyStack();
    try {
      const view = {
        messages: [{ role: "user" as const, content: "capital peru" }],
        tools: [],
        actionFormat: "text" as const,
      };
      const action = await stack.policy.act(view, { seed: 9 });
      const request = sampleRequestSchema.parse(
        stack.server?.received.find((entry) => entry.endpoint === "/asample")?.body,
      );
      expect(request.sampling_params).toMatchObject({ max_tokens: 3, stop: [1], seed: 9, temperature: 1 });
      const trace = tinkerTraceSchema.parse(action.trace);
      expect(trace.promptTokens).toEqual(stack.renderer.renderPrompt(view.messages, []).tokens);
      expect(request.prompt.chunks[0]?.tokens).toEqual(trace.promptTokens);
      expect(action.tokens?.map((token) => token.id)).toEqual(trace.completionTokens);
      expect(action.tokens?.every((token) => token.logprob < 0)).toBe(true);
      expect(action.logprob).toBeCloseTo(
        action.tokens?.reduce((sum, token) => sum + token.logprob, 0) ?? 0,
        10,
      );
      const withoutStop = trace.completionTokens.filter((token) => token !== 1);
      expect(action.content).toBe(stack.renderer.decode(withoutStop));
      expect(action.finishReason).toBe(trace.completionTokens.includes(1) ? "stop" : "length");
      const again = await stack.policy.act(view, { seed: 9 });
      expect(again.tokens).toEqual(action.tokens);
      expect(stack.policy.version).toBe("base");
    } finally {
      await stack.close();
    }
  });

  it("refuses a sampled token id the tokenizer does not have, naming it", async () => {
    // the server's model has 500 more token ids than the tokenizer: some samples land outside it
    const stack = await startTinyStack({ extraServerVocabulary: 500 });
    try {
      const view = {
        messages: [{ role: "user" as const, content: "capital peru" }],
        tools: [],
        actionFormat: "text" as const,
      };
      let refused: unknown;
      for (let seed = 0; seed < 20 && refused === undefined; seed++) {
        await stack.policy.act(view, { seed }).catch((error: unknown) => {
          refused = error;
        });
      }
      expect(String(refused)).toMatch(/asample answered token id \d+, which the tokenizer does not have/);
    } finally {
      await stack.close();
    }
  });
});

describe("parseToolCallBlocks", () => {
  it("reads Hermes tool-call blocks and keeps the text around them", () => {
    const parsed = parseToolCallBlocks(
      'Let me look.\n<tool_call>\n{"name": "execute_sql", "arguments": {"sql": "SELECT 1"}}\n</tool_call>',
      "call",
    );
    expect(parsed).toEqual({
      content: "Let me look.",
      toolCalls: [{ id: "call-0", name: "execute_sql", arguments: { sql: "SELECT 1" } }],
    });
  });

  it("reports a block that is not JSON as malformed", () => {
    const parsed = parseToolCallBlocks("<tool_call>{name: x}</tool_call>", "call");
    expect(parsed.malformed).toBe("tool call 1 is not JSON");
    expect(parsed.toolCalls).toEqual([]);
  });
});
