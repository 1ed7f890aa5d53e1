import { policyActionSchema } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { parseChatCompletion } from "./parse-completion.js";

function reply(message: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: "r1",
    model: "m",
    choices: [{ index: 0, message, finish_reason: "stop", ...extra }],
  });
}

describe("parseChatCompletion", () => {
  it("accepts argument objects, empty argument strings and calls without ids", () => {
    const action = parseChatCompletion(
      reply({
        content: null,
        tool_calls: [
          { type: "function", function: { name: "list_tables", arguments: "" } },
          { id: "c2", function: { name: "execute_sql", arguments: { sql: "SELECT 1" } } },
        ],
      }),
    );
    expect(action.malformed).toBeUndefined();
    expect(action.content).toBe("");
    expect(action.toolCalls).toEqual([
      { id: "call_0", name: "list_tables", arguments: {} },
      { id: "c2", name: "execute_sql", arguments: { sql: "SELECT 1" } },
    ]);
    expect(policyActionSchema.safeParse(action).success).toBe(true);
  });

  it("keeps the arguments' JSON text beside the parsed object, so a grader can read numbers as written", () => {
    const text = '{"answers": [1.0, 12345678901234567890]}';
    const action = parseChatCompletion(
      reply({ tool_calls: [{ id: "c1", function: { name: "commit_final_answer", arguments: text } }] }),
    );
    expect(action.toolCalls?.[0]).toEqual({
      id: "c1",
      name: "commit_final_answer",
      arguments: { answers: [1, 12345678901234567000] },
      argumentsText: text,
    });
    expect(policyActionSchema.safeParse(action).success).toBe(true);
  });

  it("marks arguments that are JSON but not an object, and calls that are not functions", () => {
    const array = parseChatCompletion(
      reply({ tool_calls: [{ id: "a", function: { name: "f", arguments: "[1,2]" } }] }),
    );
    expect(array.malformed).toBe('arguments of tool call 0 (f) are not a JSON object: "[1,2]"');
    const nameless = parseChatCompletion(reply({ tool_calls: [{ id: "a", function: { arguments: "{}" } }] }));
    expect(nameless.malformed).toMatch(/^tool call 0 is not a function call \(function\.name:/);
    const other = parseChatCompletion(
      reply({
        tool_calls: [{ id: "a", type: "code_interpreter", function: { name: "f", arguments: "{}" } }],
      }),
    );
    expect(other.malformed).toBe('tool call 0 has type "code_interpreter", expected "function"');
  });

  it("joins content parts and keeps reasoning text in the trace", () => {
    const action = parseChatCompletion(
      reply({
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
        reasoning_content: "think",
      }),
    );
    expect(action.content).toBe("ab");
    expect(action.trace).toMatchObject({
      backend: "openai-compatible",
      model: "m",
      responseId: "r1",
      reasoning: "think",
    });
  });

  it("leaves logprob null when any entry lacks a number, and ignores token_ids of another length", () => {
    const partial = parseChatCompletion(
      reply(
        { content: "ab" },
        {
          logprobs: {
            content: [
              { token: "a", logprob: -1 },
              { token: "b", logprob: null },
            ],
          },
        },
      ),
    );
    expect(partial.logprob).toBeNull();
    expect(partial.tokens).toBeUndefined();
    const mismatched = parseChatCompletion(
      reply(
        { content: "ab" },
        { token_ids: [1, 2, 3], logprobs: { content: [{ token: "a", logprob: -1 }] } },
      ),
    );
    expect(mismatched.tokens).toEqual([{ text: "a", logprob: -1 }]);
    expect(mismatched.trace).toMatchObject({ tokenIds: [1, 2, 3] });
  });

  it("never throws on unreadable bodies", () => {
    for (const body of ["", "null", "[]", "{", '{"choices": "x"}', '{"choices": [null]}']) {
      const action = parseChatCompletion(body);
      expect(action.malformed, body).toBeTypeOf("string");
      expect(policyActionSchema.safeParse(action).success).toBe(true);
    }
  });
});
