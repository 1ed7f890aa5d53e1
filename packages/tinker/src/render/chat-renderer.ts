import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { ChatMessage, ToolSpec } from "@hs/spec";
import { InvalidInputError } from "@hs/spec";
import { Template } from "@huggingface/jinja";
import { Tokenizer } from "@huggingface/tokenizers";
import { z } from "zod";

/** The part of `tokenizer_config.json` the renderer reads. */
const tokenizerConfigSchema = z
  .object({
    /** Jinja chat template (a string, or named templates). */
    chat_template: z
      .union([z.string(), z.array(z.object({ name: z.string(), template: z.string() }))])
      .optional(),
    /** End-of-sequence token (the reply's stop token for chat models). */
    eos_token: z
      .union([z.string(), z.object({ content: z.string() })])
      .nullable()
      .optional(),
    /** Beginning-of-sequence token, handed to the template. */
    bos_token: z
      .union([z.string(), z.object({ content: z.string() })])
      .nullable()
      .optional(),
  })
  .passthrough();

/** Options of a renderer. */
export interface ChatRendererOptions {
  /** Extra stop strings whose token ids end a reply (besides the config's `eos_token`). */
  stopTokens?: string[];
  /** Variables handed to the template, e.g. `{ enable_thinking: false }` for Qwen3. */
  templateVariables?: Record<string, unknown>;
}

function tokenText(value: string | { content: string } | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  return typeof value === "string" ? value : value.content;
}

/**
 * Renders a conversation with a model's own chat template (Jinja, through `@huggingface/jinja`) and
 * tokenizes it with its `tokenizer.json` (through `@huggingface/tokenizers`), as the cookbook's
 * renderers do on the client side (thinking-machines-lab/tinker-cookbook `renderers`): the Tinker
 * server never tokenizes.
 */
export class ChatRenderer {
  readonly tokenizer: Tokenizer;
  readonly template: Template;
  /** Token ids that end a reply. */
  readonly stopTokenIds: number[];
  private readonly variables: Record<string, unknown>;

  constructor(
    tokenizerJson: object,
    tokenizerConfig: z.infer<typeof tokenizerConfigSchema>,
    options: ChatRendererOptions = {},
  ) {
    this.tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
    const source = tokenizerConfig.chat_template;
    const text =
      typeof source === "string" ? source : source?.find((entry) => entry.name === "default")?.template;
    if (text === undefined) throw new InvalidInputError("no chat template", { field: "chat_template" });
    try {
      this.template = new Template(text);
    } catch (error) {
      throw new InvalidInputError(`the chat template does not parse: ${(error as Error).message}`, {
        field: "chat_template",
      });
    }
    const eos = tokenText(tokenizerConfig.eos_token);
    const stops = [...(eos === undefined ? [] : [eos]), ...(options.stopTokens ?? [])];
    this.stopTokenIds = stops.map((stop) => {
      const id = this.tokenizer.token_to_id(stop);
      if (id === undefined)
        throw new InvalidInputError(`stop token ${stop} is not in the vocabulary`, { field: "eos_token" });
      return id;
    });
    this.variables = {
      bos_token: tokenText(tokenizerConfig.bos_token) ?? "",
      eos_token: eos ?? "",
      ...options.templateVariables,
    };
  }

  /**
   * Reads `tokenizer.json`, `tokenizer_config.json` and, when present, `chat_template.jinja` from a
   * directory (the layout of a Hugging Face model repository).
   */
  static async fromDirectory(directory: string, options: ChatRendererOptions = {}): Promise<ChatRenderer> {
    const tokenizerJson = await readJson(join(directory, "tokenizer.json"));
    const configPath = join(directory, "tokenizer_config.json");
    const parsed = tokenizerConfigSchema.safeParse(await readJson(configPath));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InvalidInputError(issue?.message ?? "invalid", {
        file: configPath,
        field: issue?.path.join(".") ?? "",
      });
    }
    const templatePath = join(directory, "chat_template.jinja");
    const hasTemplateFile = await stat(templatePath).then(
      () => true,
      () => false,
    );
    const config = hasTemplateFile
      ? { ...parsed.data, chat_template: await readFile(templatePath, "utf8") }
      : parsed.data;
    try {
      return new ChatRenderer(tokenizerJson as object, config, options);
    } catch (error) {
      if (!(error instanceof InvalidInputError)) throw error;
      const reason = error.message.replace(/^field "[^"]*": /, "");
      const inTemplateFile = hasTemplateFile && error.location.field === "chat_template";
      const missing = reason === "no chat template" ? ` (and no ${templatePath})` : "";
      throw new InvalidInputError(
        `${reason}${missing}`,
        { file: inTemplateFile ? templatePath : configPath, field: error.location.field ?? "" },
        { cause: error },
      );
    }
  }

  /** The template's text for `messages` (with the assistant's generation prompt when asked). */
  renderText(
    messages: readonly ChatMessage[],
    tools: readonly ToolSpec[],
    addGenerationPrompt: boolean,
  ): string {
    return this.template.render({
      ...this.variables,
      messages: messages.map(templateMessage),
      ...(tools.length === 0 ? {} : { tools: tools.map(templateTool) }),
      add_generation_prompt: addGenerationPrompt,
    });
  }

  /** Token ids of text that already holds the template's special tokens. */
  encode(text: string): number[] {
    return this.tokenizer.encode(text, { add_special_tokens: false }).ids;
  }

  /** Text of token ids; special tokens dropped unless `keepSpecial`. */
  decode(tokens: readonly number[], keepSpecial = false): string {
    if (tokens.length === 0) return "";
    return this.tokenizer.decode([...tokens], { skip_special_tokens: !keepSpecial });
  }

  /** The prompt of one policy step: rendered text and its token ids. */
  renderPrompt(
    messages: readonly ChatMessage[],
    tools: readonly ToolSpec[],
  ): { text: string; tokens: number[] } {
    const text = this.renderText(messages, tools, true);
    return { text, tokens: this.encode(text) };
  }
}

/** A harness message in the shape chat templates read (OpenAI style `tool_calls`). */
function templateMessage(message: ChatMessage): Record<string, unknown> {
  const shaped: Record<string, unknown> = { role: message.role, content: message.content };
  if (message.toolCalls !== undefined && message.toolCalls.length > 0) {
    shaped.tool_calls = message.toolCalls.map((call) => ({
      type: "function",
      id: call.id,
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  if (message.toolCallId !== undefined) shaped.tool_call_id = message.toolCallId;
  if (message.name !== undefined) shaped.name = message.name;
  return shaped;
}

function templateTool(tool: ToolSpec): Record<string, unknown> {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new InvalidInputError("cannot read the file", { file: path }, { cause: error });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(`not JSON: ${(error as Error).message}`, { file: path }, { cause: error });
  }
}
