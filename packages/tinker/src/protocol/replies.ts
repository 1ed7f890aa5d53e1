import { z } from "zod";
import { tensorDataSchema } from "./datum.js";
import { loraConfigSchema } from "./requests.js";

/*
 * Reply bodies of the Tinker API as JSON. Direct replies follow NovaSky-AI/SkyRL `skyrl/tinker/api.py`
 * (CreateSessionResponse, FutureResponse...); results of futures follow SkyRL `skyrl/tinker/types.py`
 * (ForwardBackwardOutput, OptimStepOutput, SampleOutput, SaveWeights*Output) and the SDK's
 * `src/tinker/types/{try_again_response,request_failed_response,sampled_sequence}.py`.
 * Objects are not strict: servers add fields (e.g. `type`) and the client keeps what it knows.
 */

/** Reply of /create_session. */
export const createSessionReplySchema = z.object({
  /** The new session. */
  session_id: z.string(),
  /** Notices from the service. */
  info_message: z.string().nullable().optional(),
  /** Warnings from the service. */
  warning_message: z.string().nullable().optional(),
  /** An error the service reports without failing the call. */
  error_message: z.string().nullable().optional(),
});

/** Reply of /session_heartbeat. */
export const sessionHeartbeatReplySchema = z.object({
  /** Discriminator. */
  type: z.literal("session_heartbeat").optional(),
});

/** Reply of a call that queued work: poll `request_id` with /retrieve_future. */
export const futureReplySchema = z.object({
  /** Id to poll. */
  request_id: z.string(),
  /** Same id (SkyRL sends both). */
  future_id: z.string().optional(),
  /** `pending`. */
  status: z.string().optional(),
});

/**
 * Reply of /create_model: a future (Tinker answers only `request_id`; SkyRL adds the model id), whose
 * result is `createModelResultSchema`.
 */
export const createModelReplySchema = z.object({
  /** The new model (SkyRL). */
  model_id: z.string().optional(),
  /** Base model. */
  base_model: z.string().optional(),
  /** LoRA settings echoed. */
  lora_config: loraConfigSchema.nullable().optional(),
  /** `created`. */
  status: z.string().optional(),
  /** Future of the model's creation, when the server queues it. */
  request_id: z.string().optional(),
});

/** Result of the create_model future (SDK `CreateModelResponse`, SkyRL `CreateModelOutput`). */
export const createModelResultSchema = z.object({
  /** The new model. */
  model_id: z.string(),
  /** Base model (SkyRL). */
  base_model: z.string().optional(),
  /** Discriminator. */
  type: z.string().optional(),
});

/** Reply of /get_info. */
export const modelInfoReplySchema = z.object({
  /** The model. */
  model_id: z.string(),
  /** Lifecycle status. */
  status: z.string(),
  /** What the model is. */
  model_data: z.object({
    /** Base model. */
    base_model: z.string(),
    /** LoRA settings. */
    lora_config: loraConfigSchema.nullable().optional(),
    /** Display name. */
    model_name: z.string().nullable().optional(),
  }),
});

/** Reply of /create_sampling_session. */
export const createSamplingSessionReplySchema = z.object({
  /** The sampling session. */
  sampling_session_id: z.string(),
});

/** Reply of GET /get_server_capabilities. */
export const serverCapabilitiesReplySchema = z.object({
  /** Base models the server can train and sample. */
  supported_models: z.array(z.object({ model_name: z.string() })),
});

/** Reply of GET /healthz. */
export const healthReplySchema = z.object({
  /** `ok` when ready. */
  status: z.literal("ok"),
});

/** A future that is not done yet (HTTP 200). */
export const tryAgainReplySchema = z.object({
  /** Discriminator. */
  type: z.literal("try_again"),
  /** The pending request. */
  request_id: z.string().optional(),
  /** Why it waits. */
  queue_state: z.enum(["active", "paused_capacity", "paused_rate_limit"]).optional(),
});

/** A future that failed (Tinker: HTTP 200 with this body; SkyRL: HTTP 400 `{detail}`). */
export const requestFailedReplySchema = z.object({
  /** What went wrong. */
  error: z.string(),
  /** `unknown`, `server` or `user`: only `server` failures are worth re-sending. */
  category: z.enum(["unknown", "server", "user"]),
});

/** Result of forward_backward. */
export const forwardBackwardResultSchema = z.object({
  /** Class name of the per-datum outputs. */
  loss_fn_output_type: z.string(),
  /** Per-datum outputs, e.g. `logprobs` of the targets under the current weights. */
  loss_fn_outputs: z.array(z.record(z.string(), tensorDataSchema)),
  /** Scalar metrics, e.g. `loss:sum`. */
  metrics: z.record(z.string(), z.number()),
});
/** Result of forward_backward. */
export type ForwardBackwardResult = z.infer<typeof forwardBackwardResultSchema>;

/** Result of optim_step. */
export const optimStepResultSchema = z.object({
  /** Scalar metrics, e.g. the gradient norm. */
  metrics: z.record(z.string(), z.number()).nullable().optional(),
});

/** Result of save_weights and load_weights. */
export const saveWeightsResultSchema = z.object({
  /** `tinker://MODEL/weights/NAME`. */
  path: z.string(),
  /** Discriminator. */
  type: z.string().optional(),
});

/** Result of load_weights. */
export const loadWeightsResultSchema = z.object({
  /** The loaded path (SkyRL omits it). */
  path: z.string().nullable().optional(),
  /** Discriminator. */
  type: z.string().optional(),
});

/** Result of save_weights_for_sampler. */
export const saveWeightsForSamplerResultSchema = z.object({
  /** `tinker://MODEL/sampler_weights/NAME` (null for an ephemeral sampler). */
  path: z.string().nullable().optional(),
  /** Sampling session bound to these weights, for an ephemeral sampler. */
  sampling_session_id: z.string().nullable().optional(),
  /** Discriminator. */
  type: z.string().optional(),
});

/** One sampled continuation. */
export const sampledSequenceSchema = z.object({
  /** `stop` (a stop token or string) or `length` (max_tokens). */
  stop_reason: z.enum(["stop", "length"]),
  /** Generated token ids (the stop token included when one ended it). */
  tokens: z.array(z.number().int()),
  /** Log-probability of each generated token. */
  logprobs: z.array(z.number()).nullable().optional(),
});
/** One sampled continuation. */
export type SampledSequence = z.infer<typeof sampledSequenceSchema>;

/** Result of asample. */
export const sampleResultSchema = z.object({
  /** The continuations. */
  sequences: z.array(sampledSequenceSchema),
  /** Prompt log-probabilities, when asked (null for the first token). */
  prompt_logprobs: z.array(z.number().nullable()).nullable().optional(),
  /** Discriminator. */
  type: z.string().optional(),
});
/** Result of asample. */
export type SampleResult = z.infer<typeof sampleResultSchema>;
