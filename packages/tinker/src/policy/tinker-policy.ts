import type { PolicyAction, PolicyActOptions, PolicyV1, PolicyView } from "@hs/spec";
import { z } from "zod";
import { TinkerApiError } from "../client/errors.js";
import type { SamplingSessionHandle, TinkerClient } from "../client/tinker-client.js";
import { tokensInput } from "../protocol/datum.js";
import type { ChatRenderer } from "../render/chat-renderer.js";
import { parseToolCallBlocks } from "./tool-call-blocks.js";

/** What a Tinker policy records in `PolicyAction.trace`: the exact tokens of the step. */
export const tinkerTraceSchema = z.object({
  /** Trace kind. */
  format: z.literal("tinker-tokens"),
  /** Prompt token ids the sampler was given (the rendered view). */
  promptTokens: z.array(z.number().int()),
  /** Sampled token ids, the stop token included when one ended the reply. */
  completionTokens: z.array(z.number().int()),
  /** Sampler weights that produced it. */
  sampler: z.string(),
});
/** The trace of one Tinker step. */
export type TinkerTrace = z.infer<typeof tinkerTraceSchema>;

/** Options of the Tinker sampler policy. */
export interface TinkerPolicyOptions {
  /** A client with a session. */
  client: TinkerClient;
  /** Chat template and tokenizer of the base model. */
  renderer: ChatRenderer;
  /** Base model (sampled until the learner saves sampler weights). */
  baseModel: string;
  /** Most tokens per reply. */
  maxTokens: number;
  /** Sampling temperature (default 1; greedy mode uses 0). */
  temperature?: number;
}

/**
 * A PolicyV1 on Tinker's sampler: renders exactly the harness view with the model's chat template,
 * samples through /asample with the template's stop tokens, decodes the reply and records the ids
 * and log-probabilities of every sampled token (the trace keeps the prompt ids for the learner).
 * Text protocols are parsed by the harness runtime; native tool calls are read from
 * `<tool_call>` blocks.
 */
export class TinkerSamplerPolicy implements PolicyV1 {
  readonly specificationVersion = "v1" as const;
  readonly id: string;
  private readonly options: TinkerPolicyOptions;
  private session: SamplingSessionHandle | undefined;
  private source: { modelPath: string } | { baseModel: string };
  private versionValue = "base";
  /** Sampling calls made. */
  calls = 0;

  constructor(options: TinkerPolicyOptions) {
    this.options = options;
    this.id = `tinker:${options.baseModel}`;
    this.source = { baseModel: options.baseModel };
  }

  get version(): string {
    return this.versionValue;
  }

  /** The sampler weights in use (`tinker://...` or the base model). */
  get samplerPath(): string {
    return "modelPath" in this.source ? this.source.modelPath : this.source.baseModel;
  }

  /** Samples from `modelPath` from now on (after a learner update or a resume). */
  useSampler(modelPath: string, version: string): void {
    this.source = { modelPath };
    this.session = undefined;
    this.versionValue = version;
  }

  /**
   * Opens the sampling session on the current sampler weights now rather than at the first `act`, so
   * that weights the server does not have are refused before any episode starts.
   */
  async open(options: { signal?: AbortSignal } = {}): Promise<void> {
    await this.samplingSession(options.signal);
  }

  private async samplingSession(signal: AbortSignal | undefined): Promise<SamplingSessionHandle> {
    if (this.session === undefined) {
      this.session = await this.options.client.createSamplingSession(
        this.source,
        signal === undefined ? {} : { signal },
      );
    }
    return this.session;
  }

  async act(view: PolicyView, options: PolicyActOptions): Promise<PolicyAction> {
    const { renderer } = this.options;
    const tools = view.actionFormat === "tool-calls" ? view.tools : [];
    const prompt = renderer.renderPrompt(view.messages, tools);
    const signalOption = options.signal === undefined ? {} : { signal: options.signal };
    const session = await this.samplingSession(options.signal);
    const temperature = options.mode === "greedy" ? 0 : (this.options.temperature ?? 1);
    const result = await this.options.client.sample(
      session,
      tokensInput(prompt.tokens),
      1,
      {
        max_tokens: this.options.maxTokens,
        seed: options.seed >>> 0,
        stop: renderer.stopTokenIds,
        temperature,
      },
      signalOption,
    );
    this.calls++;
    const sequence = result.sequences[0];
    if (sequence === undefined)
      throw new TinkerApiError("asample answered no sequence", { endpoint: "/asample" });
    const unknown = sequence.tokens.find(
      (id) => (renderer.tokenizer.id_to_token(id) ?? undefined) === undefined,
    );
    if (unknown !== undefined) {
      throw new TinkerApiError(`asample answered token id ${unknown}, which the tokenizer does not have`, {
        endpoint: "/asample",
      });
    }
    const logprobs = sequence.logprobs ?? [];
    const last = sequence.tokens[sequence.tokens.length - 1];
    const endsWithStop = last !== undefined && renderer.stopTokenIds.includes(last);
    const replyTokens = endsWithStop ? sequence.tokens.slice(0, -1) : sequence.tokens;
    const text = renderer.decode(replyTokens);
    const trace: TinkerTrace = {
      format: "tinker-tokens",
      promptTokens: prompt.tokens,
      completionTokens: sequence.tokens,
      sampler: this.samplerPath,
    };
    const action: PolicyAction = {
      content: text,
      logprob:
        logprobs.length === sequence.tokens.length ? logprobs.reduce((sum, value) => sum + value, 0) : null,
      tokens: sequence.tokens.map((id, index) => ({
        id,
        text: renderer.tokenizer.id_to_token(id) ?? "",
        logprob: logprobs[index] ?? 0,
      })),
      trace,
      finishReason: sequence.stop_reason,
      usage: { promptTokens: prompt.tokens.length, completionTokens: sequence.tokens.length },
    };
    if (view.actionFormat !== "tool-calls") return action;
    const parsed = parseToolCallBlocks(text, `call-${options.seed >>> 0}`);
    return {
      ...action,
      content: parsed.content,
      ...(parsed.toolCalls.length === 0 ? {} : { toolCalls: parsed.toolCalls }),
      ...(parsed.malformed === undefined ? {} : { malformed: parsed.malformed }),
    };
  }
}
