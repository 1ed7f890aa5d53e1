import { z } from "zod";
import { datumSchema, lossFunctionSchema, modelInputSchema } from "./datum.js";

/*
 * Request bodies of the Tinker API (JSON of SDK <= 0.24.1). Field names and defaults follow
 * NovaSky-AI/SkyRL `skyrl/tinker/api.py` (CreateSessionRequest ... RetrieveFutureRequest) and
 * thinking-machines-lab/tinker `src/tinker/types/*_request.py`.
 */

/** POST /create_session. */
export const createSessionRequestSchema = z.object({
  /** Free tags shown in the service's run list. */
  tags: z.array(z.string()),
  /** Free metadata. */
  user_metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  /** SDK version the client speaks (SkyRL pins <= 0.24.1). */
  sdk_version: z.string(),
  /** Discriminator. */
  type: z.literal("create_session").optional(),
});

/** POST /session_heartbeat. */
export const sessionHeartbeatRequestSchema = z.object({
  /** Session to keep alive. */
  session_id: z.string(),
  /** Discriminator. */
  type: z.literal("session_heartbeat").optional(),
});

/** LoRA adapter settings of a trained model. */
export const loraConfigSchema = z.object({
  /** Adapter rank. */
  rank: z.number().int().positive(),
  /** Seed of the adapter's initialisation (null: random). */
  seed: z.number().int().nullable().optional(),
  /** Train the unembedding (SDK field; SkyRL ignores it). */
  train_unembed: z.boolean().optional(),
  /** Train the MLP blocks (SDK field). */
  train_mlp: z.boolean().optional(),
  /** Train the attention blocks (SDK field). */
  train_attn: z.boolean().optional(),
});
/** LoRA adapter settings. */
export type LoraConfig = z.infer<typeof loraConfigSchema>;

/** POST /create_model. */
export const createModelRequestSchema = z.object({
  /** Owning session. */
  session_id: z.string(),
  /** Base model name, e.g. `Qwen/Qwen3-0.6B`. */
  base_model: z.string(),
  /** LoRA settings. */
  lora_config: loraConfigSchema,
  /** Counter of models created in the session (the SDK's `model_seq_id`). */
  model_seq_id: z.number().int().nonnegative().optional(),
  /** Free metadata. */
  user_metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  /** Role of the model (`policy` by default on SkyRL). */
  model_role: z.string().optional(),
  /** Discriminator. */
  type: z.literal("create_model").optional(),
});

/** POST /get_info. */
export const getInfoRequestSchema = z.object({
  /** Model to describe. */
  model_id: z.string(),
  /** Discriminator. */
  type: z.string().nullable().optional(),
});

/** POST /forward_backward. */
export const forwardBackwardRequestSchema = z.object({
  /** Model whose gradients accumulate. */
  model_id: z.string(),
  /** Per-model sequence number; the server runs a model's requests in this order. */
  seq_id: z.number().int().nonnegative().nullable().optional(),
  /** The batch and its loss. */
  forward_backward_input: z.object({
    /** Datums. */
    data: z.array(datumSchema),
    /** Loss function. */
    loss_fn: lossFunctionSchema,
    /** Loss settings, e.g. `clip_low_threshold` for `ppo`. */
    loss_fn_config: z.record(z.string(), z.number()).nullable().optional(),
  }),
});

/**
 * Adam settings of one optimiser step (SDK `optim_step_request.py` `AdamParams`; its defaults are
 * `sdkAdamDefaults`, and the client always sends all six fields).
 */
export const adamParamsSchema = z.object({
  /** Learning rate. */
  learning_rate: z.number().nonnegative(),
  /** First-moment decay. */
  beta1: z.number().min(0).lt(1),
  /** Second-moment decay. */
  beta2: z.number().min(0).lt(1),
  /** Denominator epsilon. */
  eps: z.number().positive(),
  /** Decoupled weight decay (SDK >= 0.11). */
  weight_decay: z.number().min(0).optional(),
  /** Global gradient-norm clip, 0 for none (SDK field; SkyRL ignores it). */
  grad_clip_norm: z.number().min(0).optional(),
});

/** The SDK's `AdamParams` defaults, filled in for fields a caller leaves out. */
export const sdkAdamDefaults = {
  learning_rate: 0.0001,
  beta1: 0.9,
  beta2: 0.95,
  eps: 1e-12,
  weight_decay: 0,
  grad_clip_norm: 0,
} as const;
/** Adam settings. */
export type AdamParams = z.infer<typeof adamParamsSchema>;

/** POST /optim_step. */
export const optimStepRequestSchema = z.object({
  /** Model to update. */
  model_id: z.string(),
  /** Per-model sequence number. */
  seq_id: z.number().int().nonnegative().nullable().optional(),
  /** Adam settings. */
  adam_params: adamParamsSchema,
  /** Discriminator (the SDK sends it). */
  type: z.literal("optim_step").optional(),
});

/** POST /save_weights (training state: weights and optimiser). */
export const saveWeightsRequestSchema = z.object({
  /** Model to save. */
  model_id: z.string(),
  /** Checkpoint name (letters, digits, `_-`, as SkyRL ID_PATTERN). */
  path: z.string().regex(/^[A-Za-z0-9_-]+$/),
  /** Per-model sequence number (SDK sends it; SkyRL ignores it here). */
  seq_id: z.number().int().nonnegative().nullable().optional(),
  /** Discriminator. */
  type: z.literal("save_weights").nullable().optional(),
});

/** POST /save_weights_for_sampler. */
export const saveWeightsForSamplerRequestSchema = z.object({
  /** Model to export. */
  model_id: z.string(),
  /** Checkpoint name; absent with `sampling_session_seq_id` for an ephemeral sampler. */
  path: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .nullable()
    .optional(),
  /** Sampling-session counter of the session, for an ephemeral sampler. */
  sampling_session_seq_id: z.number().int().nonnegative().nullable().optional(),
  /** Per-model sequence number. */
  seq_id: z.number().int().nonnegative().nullable().optional(),
  /** Discriminator. */
  type: z.literal("save_weights_for_sampler").optional(),
});

/** POST /load_weights (only as a model's first request on Tinker and SkyRL). */
export const loadWeightsRequestSchema = z.object({
  /** Model to load into. */
  model_id: z.string(),
  /** `tinker://MODEL/weights/NAME`. */
  path: z.string(),
  /** Restore the optimiser state too. */
  optimizer: z.boolean().optional(),
  /** Per-model sequence number. */
  seq_id: z.number().int().nonnegative().nullable().optional(),
  /** Discriminator. */
  type: z.literal("load_weights").nullable().optional(),
});

/** POST /create_sampling_session. */
export const createSamplingSessionRequestSchema = z.object({
  /** Owning session. */
  session_id: z.string(),
  /** Counter of sampling sessions within the session. */
  sampling_session_seq_id: z.number().int().nonnegative(),
  /** Sample from the base model... */
  base_model: z.string().nullable().optional(),
  /** ...or from saved sampler weights `tinker://MODEL/sampler_weights/NAME`. */
  model_path: z.string().nullable().optional(),
  /** Discriminator. */
  type: z.literal("create_sampling_session").optional(),
});

/** Sampling settings. */
export const samplingParamsSchema = z.object({
  /** Most tokens to generate (required by SkyRL). */
  max_tokens: z.number().int().positive(),
  /** Seed (null: random). */
  seed: z.number().int().nullable().optional(),
  /** Stop token ids, stop strings (never mixed), or one stop string (SDK `sampling_params.py`). */
  stop: z
    .union([z.string(), z.array(z.number().int()), z.array(z.string())])
    .nullable()
    .optional(),
  /** Temperature. */
  temperature: z.number().min(0).optional(),
  /** Top-k, -1 for all. */
  top_k: z.number().int().optional(),
  /** Nucleus mass. */
  top_p: z.number().gt(0).max(1).optional(),
});
/** Sampling settings. */
export type SamplingParams = z.infer<typeof samplingParamsSchema>;

/** POST /asample. */
export const sampleRequestSchema = z.object({
  /** Samples to draw from the one prompt. */
  num_samples: z.number().int().positive(),
  /** Prompt tokens. */
  prompt: modelInputSchema,
  /** Sampling settings. */
  sampling_params: samplingParamsSchema,
  /** Sample from a base model (instead of a session or path). */
  base_model: z.string().nullable().optional(),
  /** Sample from saved sampler weights. */
  model_path: z.string().nullable().optional(),
  /** Sample through a sampling session (needs `seq_id`). */
  sampling_session_id: z.string().nullable().optional(),
  /** Per-sampling-session sequence number. */
  seq_id: z.number().int().nonnegative().nullable().optional(),
  /** Also return the prompt's log-probabilities. */
  prompt_logprobs: z.boolean().nullable().optional(),
  /** Top-k prompt log-probabilities. */
  topk_prompt_logprobs: z.number().int().nonnegative().optional(),
  /** Discriminator. */
  type: z.literal("sample").optional(),
});

/** POST /retrieve_future. */
export const retrieveFutureRequestSchema = z.object({
  /** The request id a mutating call answered. */
  request_id: z.string(),
});

/** POST /client/config (SDK `client_config_request.py`). */
export const clientConfigRequestSchema = z.object({
  /** SDK version the flags are resolved for. */
  sdk_version: z.string(),
});

/** POST /auth/token: an empty object (the credential travels in `X-API-Key`). */
export const authTokenRequestSchema = z.object({});

/** POST /weights_info. */
export const weightsInfoRequestSchema = z.object({
  /** `tinker://MODEL/weights/NAME`. */
  tinker_path: z.string(),
});

/** POST /unload_model (SDK `unload_model_request.py`). */
export const unloadModelRequestSchema = z.object({
  /** Model to unload. */
  model_id: z.string(),
  /** Discriminator. */
  type: z.literal("unload_model").optional(),
});

/** POST /telemetry: batches of SDK events; the servers only acknowledge them. */
export const telemetryRequestSchema = z.object({
  /** Events. */
  events: z.array(z.unknown()).optional(),
});
