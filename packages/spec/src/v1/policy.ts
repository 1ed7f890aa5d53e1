import { z } from "zod";
import type { PolicyView } from "./message.js";
import { toolCallSchema } from "./tool.js";

/** Log-probability of one generated unit: an LLM token, or one decision of the embedded policy. */
export const tokenLogprobSchema = z.object({
  /** Token id, when the backend returns ids. */
  id: z.number().int().optional(),
  /** Token text or decision label. */
  text: z.string().optional(),
  /** Natural-log probability under the policy that sampled it. */
  logprob: z.number(),
});
/** Log-probability of one generated unit. */
export type TokenLogprob = z.infer<typeof tokenLogprobSchema>;

/** What a policy produced for one view. */
export const policyActionSchema = z.object({
  /** Reply text (the whole reply for a text protocol; optional commentary with tool calls). */
  content: z.string(),
  /** Native tool calls, when the policy answered with them. */
  toolCalls: z.array(toolCallSchema).optional(),
  /** Log-probability of the whole action under the sampling policy, null when unknown. */
  logprob: z.number().nullable(),
  /** Per-token (or per-decision) log-probabilities, when the backend gives them. */
  tokens: z.array(tokenLogprobSchema).optional(),
  /** Backend-specific record a learner needs to recompute the log-probability (JSON). */
  trace: z.unknown().optional(),
  /**
   * Why the backend's reply could not be read as an action (e.g. tool-call arguments that are not
   * JSON). The harness treats the step as a malformed action instead of crashing.
   */
  malformed: z.string().optional(),
  /** Why generation stopped (`stop`, `tool_calls`, `length`...), when known. */
  finishReason: z.string().optional(),
  /** Token usage, when known. */
  usage: z
    .object({
      /** Tokens of the rendered view the backend read. */
      promptTokens: z.number().int(),
      /** Tokens the backend generated for this action. */
      completionTokens: z.number().int(),
    })
    .optional(),
});
/** What a policy produced for one view. */
export type PolicyAction = z.infer<typeof policyActionSchema>;

/** Options of one policy call. */
export interface PolicyActOptions {
  /** Seed for sampling; the same view and seed give the same action where the backend allows. */
  seed: number;
  /** Sample (default) or take the most likely action. */
  mode?: "sample" | "greedy";
  /** Cancels the call. */
  signal?: AbortSignal;
}

/** A policy (version 1): maps exactly what the harness rendered to an action. */
export interface PolicyV1 {
  /** Contract version. */
  readonly specificationVersion: "v1";
  /** Policy id, e.g. `embedded` or `openai-compatible:qwen2.5-7b`. */
  readonly id: string;
  /** Version of the weights acting now (changes after each learner update). */
  readonly version: string;
  /** Produces one action for the view. */
  act(view: PolicyView, options: PolicyActOptions): Promise<PolicyAction>;
}
