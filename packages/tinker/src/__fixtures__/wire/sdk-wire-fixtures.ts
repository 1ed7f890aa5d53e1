/**
 * Wire fixtures of our own: JSON request and reply bodies of every endpoint as the official SDK
 * (thinking-machines-lab/tinker 0.24.1) writes and reads them, written from its types. Each entry
 * cites the file its fields come from (`src/tinker/types/...`); request bodies match what the SDK
 * sent to the test server in `bench/sdk/sdk-sequence.py` (`exclude_none` drops null fields).
 */
export interface WireFixture {
  /** Endpoint without `/api/v1` (`{id}` for a path parameter). */
  endpoint: string;
  /** The SDK type files the bodies follow. */
  source: string;
  /** The request body (undefined for GET). */
  request?: Record<string, unknown>;
  /** The direct reply body. */
  reply?: Record<string, unknown>;
  /** The result body of the future, for queued requests. */
  result?: Record<string, unknown>;
}

const tokens = (values: number[]) => ({ chunks: [{ tokens: values, type: "encoded_text" }] });
const tensor = (data: number[], dtype: "int64" | "float32") => ({ data, dtype, shape: [data.length] });
const future = { request_id: "req_12", model_id: "model_1" };

export const sdkWireFixtures: readonly WireFixture[] = [
  {
    endpoint: "/client/config",
    source: "types/client_config_request.py, types/client_config_response.py",
    request: { sdk_version: "0.24.1" },
    reply: {
      pjwt_auth_enabled: false,
      credential_default_source: "api_key",
      sample_dispatch_bytes_semaphore_size: 10485760,
      inflight_response_bytes_semaphore_size: 52428800,
      parallel_fwdbwd_chunks: true,
      proto_compress_fwdbwd: false,
      fwdbwd_max_chunk_len: 1024,
      fwdbwd_max_chunk_bytes_count: 5000000,
      fwdbwd_dispatch_bytes_semaphore_size: 50000000,
      billing_exception_max_pause_duration_sec: 3600,
      sample_no_retries: false,
      use_pyqwest_transport: true,
    },
  },
  {
    endpoint: "/auth/token",
    source: "resources/service.py auth_token, types/auth_token_response.py",
    request: {},
    reply: { jwt: "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjE3OTk5OTk5OTl9.c2ln" },
  },
  { endpoint: "/healthz", source: "types/health_response.py", reply: { status: "ok" } },
  {
    endpoint: "/get_server_capabilities",
    source: "types/get_server_capabilities_response.py",
    reply: { supported_models: [{ model_name: "Qwen/Qwen3-8B", max_context_length: 32768 }, {}] },
  },
  {
    endpoint: "/create_session",
    source: "types/create_session_request.py, types/create_session_response.py",
    request: { tags: [], user_metadata: {}, sdk_version: "0.24.1", type: "create_session" },
    reply: {
      type: "create_session",
      info_message: null,
      warning_message: null,
      error_message: null,
      session_id: "sess_1",
    },
  },
  {
    endpoint: "/session_heartbeat",
    source: "types/session_heartbeat_request.py, types/session_heartbeat_response.py",
    request: { session_id: "sess_1", type: "session_heartbeat" },
    reply: { type: "session_heartbeat" },
  },
  {
    endpoint: "/create_model",
    source:
      "types/create_model_request.py, types/lora_config.py, types/shared/untyped_api_future.py, types/create_model_response.py",
    request: {
      session_id: "sess_1",
      model_seq_id: 0,
      base_model: "Qwen/Qwen3-8B",
      lora_config: { rank: 32, train_unembed: true, train_mlp: true, train_attn: true },
      type: "create_model",
    },
    reply: { request_id: "req_1" },
    result: { model_id: "model_1", type: "create_model" },
  },
  {
    endpoint: "/get_info",
    source: "types/get_info_request.py, types/_pydantic_types/get_info_response.py",
    request: { model_id: "model_1", type: "get_info" },
    reply: {
      type: "get_info",
      model_data: { arch: "qwen3", model_name: "Qwen/Qwen3-8B", tokenizer_id: "Qwen/Qwen3-8B" },
      model_id: "model_1",
      is_lora: true,
      lora_rank: 32,
      model_name: "Qwen/Qwen3-8B",
    },
  },
  {
    endpoint: "/forward_backward",
    source:
      "types/forward_backward_request.py, types/_pydantic_types/forward_backward_input.py, datum.py, tensor_data.py, forward_backward_output.py",
    request: {
      forward_backward_input: {
        data: [
          {
            loss_fn_inputs: {
              target_tokens: tensor([2, 3, 4], "int64"),
              weights: tensor([1, 1, 1], "float32"),
            },
            model_input: tokens([1, 2, 3]),
          },
        ],
        loss_fn: "cross_entropy",
      },
      model_id: "model_1",
      seq_id: 1,
    },
    reply: future,
    result: {
      loss_fn_output_type: "ArrayRecord",
      loss_fn_outputs: [{ logprobs: tensor([-1.5, -0.2, -0.9], "float32") }],
      metrics: { "loss:sum": 2.6 },
    },
  },
  {
    endpoint: "/optim_step",
    source: "types/optim_step_request.py, types/_pydantic_types/optim_step_response.py",
    request: {
      adam_params: {
        learning_rate: 0.0001,
        beta1: 0.9,
        beta2: 0.95,
        eps: 1e-12,
        weight_decay: 0,
        grad_clip_norm: 0,
      },
      model_id: "model_1",
      seq_id: 2,
      type: "optim_step",
    },
    reply: future,
    result: { metrics: null },
  },
  {
    endpoint: "/save_weights",
    source: "types/save_weights_request.py, types/save_weights_response.py",
    request: { model_id: "model_1", path: "step-1", seq_id: 3, overwrite: false, type: "save_weights" },
    reply: future,
    result: { path: "tinker://model_1/weights/step-1", type: "save_weights" },
  },
  {
    endpoint: "/save_weights_for_sampler",
    source:
      "types/save_weights_for_sampler_request.py, types/_pydantic_types/save_weights_for_sampler_response.py (SaveWeightsForSamplerResponseInternal)",
    request: { model_id: "model_1", seq_id: 4, sampling_session_seq_id: 1, type: "save_weights_for_sampler" },
    reply: future,
    result: { path: null, sampling_session_id: "sampling_2", type: "save_weights_for_sampler" },
  },
  {
    endpoint: "/load_weights",
    source: "types/load_weights_request.py, types/_pydantic_types/load_weights_response.py",
    request: {
      model_id: "model_1",
      seq_id: 1,
      path: "tinker://model_0/weights/step-1",
      optimizer: true,
      type: "load_weights",
    },
    reply: future,
    result: { path: "tinker://model_0/weights/step-1", model_id: "model_1", type: "load_weights" },
  },
  {
    endpoint: "/create_sampling_session",
    source: "types/create_sampling_session_request.py, types/create_sampling_session_response.py",
    request: {
      session_id: "sess_1",
      sampling_session_seq_id: 0,
      model_path: "tinker://model_1/sampler_weights/step-1",
      type: "create_sampling_session",
    },
    reply: { type: "create_sampling_session", sampling_session_id: "sampling_1" },
  },
  {
    endpoint: "/asample",
    source:
      "types/sample_request.py, types/_pydantic_types/sampling_params.py, sample_response.py, sampled_sequence.py",
    request: {
      num_samples: 2,
      prompt: tokens([1, 2]),
      sampling_params: { max_tokens: 3, seed: 5, stop: "\n", temperature: 1, top_k: -1, top_p: 1 },
      sampling_session_id: "sampling_1",
      seq_id: 0,
      prompt_logprobs: false,
      topk_prompt_logprobs: 0,
      type: "sample",
    },
    reply: { request_id: "req_13" },
    result: {
      sequences: [
        { stop_reason: "length", tokens: [3, 4, 4], logprobs: [-0.1, -0.7, -0.3] },
        { stop_reason: "stop", tokens: [3, 1], logprobs: null },
      ],
      prompt_logprobs: null,
      type: "sample",
    },
  },
  {
    endpoint: "/retrieve_future",
    source: "types/future_retrieve_request.py, types/try_again_response.py, types/request_failed_response.py",
    request: { request_id: "req_12", allow_metadata_only: true },
    reply: { type: "try_again", request_id: "req_12", queue_state: "paused_rate_limit" },
    result: { error: "prompt of 40000 tokens is longer than the model's context", category: "user" },
  },
  {
    endpoint: "/weights_info",
    source:
      "lib/public_interfaces/rest_client.py get_weights_info_by_tinker_path, types/weights_info_response.py",
    request: { tinker_path: "tinker://model_1/weights/step-1" },
    reply: {
      base_model: "Qwen/Qwen3-8B",
      is_lora: true,
      lora_rank: 32,
      train_unembed: true,
      train_mlp: true,
      train_attn: true,
    },
  },
  {
    endpoint: "/samplers/{id}",
    source: "types/_pydantic_types/get_sampler_response.py",
    reply: {
      sampler_id: "sampling_1",
      base_model: "Qwen/Qwen3-8B",
      model_path: "tinker://model_1/sampler_weights/step-1",
    },
  },
  {
    endpoint: "/unload_model",
    source: "types/unload_model_request.py, types/unload_model_response.py",
    request: { model_id: "model_1", type: "unload_model" },
    reply: { model_id: "model_1", type: "unload_model" },
  },
  {
    endpoint: "/telemetry",
    source: "types/telemetry_send_request.py, types/telemetry_response.py",
    request: {
      events: [],
      platform: "linux",
      sdk_version: "0.24.1",
      session_id: "sess_1",
      process_uuid: "0f0e",
    },
    reply: { status: "accepted" },
  },
];
