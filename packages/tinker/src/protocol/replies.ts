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

/**
 * Reply of /get_info: the SDK's `GetInfoResponse` (thinking-machines-lab/tinker
 * `src/tinker/types/_pydantic_types/get_info_response.py`: `model_data{arch, model_name, tokenizer_id}`,
 * `is_lora`, `lora_rank`, `model_name`, all optional but `model_id`) and SkyRL's `ModelInfoResponse`
 * (`status`, `model_data{base_model, lora_config, model_name}`).
 */
export const modelInfoReplySchema = z.object({
  /** The model. */
  model_id: z.string(),
  /** Discriminator (SDK). */
  type: z.literal("get_info").nullable().optional(),
  /** Lifecycle status (SkyRL only). */
  status: z.string().nullable().optional(),
  /** What the model is. */
  model_data: z.object({
    /** Architecture (SDK). */
    arch: z.string().nullable().optional(),
    /** Model name (both). */
    model_name: z.string().nullable().optional(),
    /** Tokenizer to load for this model (SDK). */
    tokenizer_id: z.string().nullable().optional(),
    /** Base model (SkyRL). */
    base_model: z.string().nullable().optional(),
    /** LoRA settings (SkyRL). */
    lora_config: loraConfigSchema.partial().nullable().optional(),
  }),
  /** Whether the model is a LoRA adapter (SDK). */
  is_lora: z.boolean().nullable().optional(),
  /** LoRA rank (SDK). */
  lora_rank: z.number().int().nullable().optional(),
  /** Model name (SDK). */
  model_name: z.string().nullable().optional(),
});

/** Reply of /create_sampling_session. */
export const createSamplingSessionReplySchema = z.object({
  /** The sampling session. */
  sampling_session_id: z.string(),
});

/** Reply of GET /get_server_capabilities (SDK `get_server_capabilities_response.py`: both fields optional). */
export const serverCapabilitiesReplySchema = z.object({
  /** Base models the server can train and sample. */
  supported_models: z.array(
    z.object({
      /** Model name. */
      model_name: z.string().nullable().optional(),
      /** Longest context in tokens. */
      max_context_length: z.number().int().nullable().optional(),
    }),
  ),
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

/** Categories of a failed request (SDK `request_error_category.py`). */
export const requestErrorCategories = ["unknown", "server", "user"] as const;

/**
 * A future that failed (Tinker: HTTP 200 with this body; SkyRL: HTTP 400 `{detail}`). A category the
 * client does not know is read as `unknown`, as the SDK's `api_future_impl.py` does.
 */
export const requestFailedReplySchema = z.object({
  /** What went wrong. */
  error: z.string(),
  /** `unknown`, `server` or `user`: only `server` failures are worth re-sending. */
  category: z
    .unknown()
    .optional()
    .transform(
      (value): (typeof requestErrorCategories)[number] =>
        requestErrorCategories.find((known) => known === value) ?? "unknown",
    ),
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
  tokens: z.array(z.number().int().nonnegative()),
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

/** Reply of /client/config: the server's feature flags (SDK `client_config_response.py`, defaults there). */
export const clientConfigReplySchema = z.object({
  /** Exchange the API key for a JWT at /auth/token before any other call. */
  pjwt_auth_enabled: z.boolean().default(false),
  /** Where the credential comes from (`api_key` or `credential_cmd`). */
  credential_default_source: z.string().default("api_key"),
  /** Most datums per forward_backward request. */
  fwdbwd_max_chunk_len: z.number().int().positive().default(1024),
  /** Most estimated bytes per forward_backward request. */
  fwdbwd_max_chunk_bytes_count: z.number().int().positive().default(5_000_000),
  /** Chunks of one batch may be sent in parallel (this client sends them in order). */
  parallel_fwdbwd_chunks: z.boolean().default(true),
  /** zstd-compress protobuf forward_backward bodies (not spoken by this client). */
  proto_compress_fwdbwd: z.boolean().default(false),
  /** Do not retry sampling requests. */
  sample_no_retries: z.boolean().default(false),
});
/** The server's feature flags. */
export type ClientConfig = z.infer<typeof clientConfigReplySchema>;

/** Reply of /auth/token (SDK `auth_token_response.py`). */
export const authTokenReplySchema = z.object({
  /** Short-lived JWT, sent as `X-API-Key` on later calls. */
  jwt: z.string().min(1),
});

/** Reply of /weights_info (SDK `weights_info_response.py`, SkyRL `WeightsInfoResponse`). */
export const weightsInfoReplySchema = z.object({
  /** Base model of the checkpoint. */
  base_model: z.string(),
  /** Whether it is a LoRA adapter. */
  is_lora: z.boolean(),
  /** LoRA rank. */
  lora_rank: z.number().int().nullable().optional(),
  /** Trained parts (SDK). */
  train_unembed: z.boolean().nullable().optional(),
  /** Trained parts (SDK). */
  train_mlp: z.boolean().nullable().optional(),
  /** Trained parts (SDK). */
  train_attn: z.boolean().nullable().optional(),
});

/** Reply of GET /samplers/{id} (SDK `get_sampler_response.py`). */
export const samplerReplySchema = z.object({
  /** The sampling session. */
  sampler_id: z.string(),
  /** Its base model. */
  base_model: z.string(),
  /** Its weights, when not the base model. */
  model_path: z.string().nullable().optional(),
});

/** Reply of /unload_model: a future (SkyRL) or the model id (SDK `unload_model_response.py`). */
export const unloadModelReplySchema = z.object({
  /** The unloaded model. */
  model_id: z.string().optional(),
  /** Future of the unload (SkyRL). */
  request_id: z.string().optional(),
  /** Discriminator. */
  type: z.literal("unload_model").nullable().optional(),
});

/** Reply of /telemetry (SDK `telemetry_response.py`). */
export const telemetryReplySchema = z.object({
  /** `accepted`. */
  status: z.literal("accepted"),
});
