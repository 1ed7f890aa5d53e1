import { z } from "zod";

/*
 * Training data of the Tinker API as JSON (SDK <= 0.24.1; SDK 0.25 moved forward_backward to
 * protobuf, SkyRL still accepts this JSON). Shapes follow thinking-machines-lab/tinker
 * `src/tinker/types/{model_input,encoded_text_chunk,tensor_data,datum}.py` and NovaSky-AI/SkyRL
 * `skyrl/tinker/api.py` (EncodedTextChunk, ModelInput, TensorData, Datum).
 */

/** A run of token ids inside a model input. */
export const encodedTextChunkSchema = z.object({
  /** Chunk kind; only token chunks are used here. */
  type: z.literal("encoded_text"),
  /** Token ids. */
  tokens: z.array(z.number().int().nonnegative()),
});
/** A run of token ids inside a model input. */
export type EncodedTextChunk = z.infer<typeof encodedTextChunkSchema>;

/** What the model reads: a list of chunks, concatenated. */
export const modelInputSchema = z.object({
  /** The chunks, in order. */
  chunks: z.array(encodedTextChunkSchema),
});
/** What the model reads. */
export type ModelInput = z.infer<typeof modelInputSchema>;

/** Element type of a tensor. */
export const tensorDtypeSchema = z.enum(["int64", "float32"]);

/** A dense tensor as JSON. */
export const tensorDataSchema = z.object({
  /** Values, flattened in row-major order. */
  data: z.array(z.number()),
  /** Element type (the SDK always sends it; SkyRL ignores it). */
  dtype: tensorDtypeSchema.optional(),
  /** Shape; a flat list of N values has shape [N]. */
  shape: z.array(z.number().int().nonnegative()).nullable().optional(),
});
/** A dense tensor as JSON. */
export type TensorData = z.infer<typeof tensorDataSchema>;

/** One training example: the input tokens and the per-position inputs of the loss. */
export const datumSchema = z.object({
  /** Input tokens (the sequence without its last token). */
  model_input: modelInputSchema,
  /**
   * Loss inputs by name: `target_tokens` (int64), and for RL losses `logprobs` (sampling
   * log-probabilities) and `advantages` (float32); `weights` for cross entropy.
   */
  loss_fn_inputs: z.record(z.string(), tensorDataSchema),
});
/** One training example. */
export type Datum = z.infer<typeof datumSchema>;

/**
 * Loss functions a server computes: the SDK's `LossFnType` (thinking-machines-lab/tinker
 * `src/tinker/types/loss_fn_type.py`: cross_entropy, importance_sampling, ppo, cispo, dro) and SkyRL's
 * `ForwardBackwardInput.loss_fn` (adds gspo, ppo_critic, dppo).
 */
export const lossFunctionSchema = z.enum([
  "cross_entropy",
  "dro",
  "importance_sampling",
  "ppo",
  "gspo",
  "cispo",
  "ppo_critic",
  "dppo",
]);
/** Loss function name. */
export type LossFunction = z.infer<typeof lossFunctionSchema>;

/** A flat int64 tensor. */
export function intTensor(values: readonly number[]): TensorData {
  return { data: [...values], dtype: "int64", shape: [values.length] };
}

/** A flat float32 tensor. */
export function floatTensor(values: readonly number[]): TensorData {
  return { data: [...values], dtype: "float32", shape: [values.length] };
}

/** A model input of one token chunk. */
export function tokensInput(tokens: readonly number[]): ModelInput {
  return { chunks: [{ type: "encoded_text", tokens: [...tokens] }] };
}

/** All tokens of a model input, in order. */
export function flattenModelInput(input: ModelInput): number[] {
  return input.chunks.flatMap((chunk) => chunk.tokens);
}
