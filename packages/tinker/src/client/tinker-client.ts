import type { z } from "zod";
import type { Datum, LossFunction, ModelInput } from "../protocol/datum.js";
import { encodeForwardBackward, sendsProtobuf } from "../protocol/forward-backward-proto.js";
import {
  authTokenReplySchema,
  type ClientConfig,
  clientConfigReplySchema,
  createModelReplySchema,
  createModelResultSchema,
  createSamplingSessionReplySchema,
  createSessionReplySchema,
  type ForwardBackwardResult,
  forwardBackwardResultSchema,
  futureReplySchema,
  healthReplySchema,
  loadWeightsResultSchema,
  modelInfoReplySchema,
  optimStepResultSchema,
  type SampleResult,
  sampleResultSchema,
  samplerReplySchema,
  saveWeightsForSamplerResultSchema,
  saveWeightsResultSchema,
  serverCapabilitiesReplySchema,
  sessionHeartbeatReplySchema,
  unloadModelReplySchema,
  weightsInfoReplySchema,
} from "../protocol/replies.js";
import {
  type AdamParams,
  type LoraConfig,
  type SamplingParams,
  sdkAdamDefaults,
} from "../protocol/requests.js";
import { combineForwardBackward, splitBatch } from "./batches.js";
import { CallDeadline, connectionBackoffMs } from "./call-policy.js";
import { systemClock } from "./clock.js";
import { TinkerApiError } from "./errors.js";
import { awaitFuture } from "./futures.js";
import { TinkerTransport, type TransportOptions } from "./transport.js";

/** Options of a Tinker client. */
export interface TinkerClientOptions extends TransportOptions {
  /** Heartbeat period in ms (default 10,000, as the SDK's session heartbeat). */
  heartbeatIntervalMs?: number;
  /** SDK version announced in client/config and create_session (default `0.24.1`, the last with JSON forward_backward). */
  sdkVersion?: string;
  /**
   * How forward_backward bodies are sent: `protobuf` (`protocol/tinker-wire.proto`) as the SDK sends
   * them from 0.25.0 on, `json` before. Default: chosen by `sdkVersion`, as the SDK's version decides.
   */
  forwardBackwardEncoding?: "json" | "protobuf";
}

/** A trained model on the server and its seq_id counter. */
export interface TrainingModelHandle {
  /** Server's model id. */
  readonly modelId: string;
  /** Base model. */
  readonly baseModel: string;
  /** Next seq_id to send (starts at 1, as the SDK's `_get_request_id() + 1`). */
  nextSeqId: number;
}

/** A sampling session and its seq_id counter. */
export interface SamplingSessionHandle {
  /** Server's sampling session id. */
  readonly samplingSessionId: string;
  /** Where its weights are (`tinker://.../sampler_weights/...`), or the base model. */
  readonly source: string;
  /** Next seq_id of asample on this session. */
  nextSeqId: number;
}

type Signal = { signal?: AbortSignal };

/**
 * Client of the Tinker API (Thinking Machines' service or SkyRL's `skyrl.tinker.api`). It starts as
 * the SDK does: `POST /client/config` (and `/auth/token` when the config asks for a JWT), then one
 * session kept alive by a heartbeat until `close`. Every HTTP call has its own idempotency key; a
 * model's training calls carry its next seq_id; `CallPolicy` bounds every wait.
 */
export class TinkerClient {
  readonly transport: TinkerTransport;
  private readonly heartbeatIntervalMs: number;
  private readonly sdkVersion: string;
  private readonly apiKey: string | undefined;
  /** How forward_backward bodies are sent. */
  readonly forwardBackwardEncoding: "json" | "protobuf";
  private clientConfigValue: ClientConfig | undefined;
  private sessionIdValue: string | undefined;
  private samplingSessionCount = 0;
  private modelCount = 0;
  private heartbeatStop: AbortController | undefined;
  private heartbeatLoop: Promise<void> | undefined;
  /** Heartbeats the server acknowledged. */
  heartbeats = 0;

  constructor(options: TinkerClientOptions) {
    this.transport = new TinkerTransport(options);
    this.heartbeatIntervalMs = options.heartbeatIntervalMs ?? 10_000;
    this.sdkVersion = options.sdkVersion ?? "0.24.1";
    this.apiKey = options.apiKey;
    this.forwardBackwardEncoding =
      options.forwardBackwardEncoding ?? (sendsProtobuf(this.sdkVersion) ? "protobuf" : "json");
  }

  /** The session id (after `createSession`). */
  get sessionId(): string {
    if (this.sessionIdValue === undefined) throw new Error("TinkerClient: call createSession first");
    return this.sessionIdValue;
  }

  /** The server's feature flags (after `handshake`, which `createSession` runs). */
  get clientConfig(): ClientConfig {
    if (this.clientConfigValue === undefined) throw new Error("TinkerClient: call handshake first");
    return this.clientConfigValue;
  }

  /**
   * The SDK's first calls (`lib/internal_client_holder.py`): `POST /client/config {sdk_version}`,
   * then, when it answers `pjwt_auth_enabled`, `POST /auth/token` with the API key, whose JWT is
   * sent as `X-API-Key` from then on.
   */
  async handshake(options: Signal = {}): Promise<ClientConfig> {
    if (this.clientConfigValue !== undefined) return this.clientConfigValue;
    const config = await this.logical("/client/config", (deadline) =>
      this.transport.call(
        "POST",
        "/client/config",
        { sdk_version: this.sdkVersion },
        clientConfigReplySchema,
        {
          ...options,
          deadline,
        },
      ),
    );
    if (config.pjwt_auth_enabled) {
      if (this.apiKey === undefined) {
        throw new TinkerApiError(
          "/auth/token: the server asks for a JWT exchange and no API key is set (TINKER_API_KEY)",
          {
            endpoint: "/auth/token",
          },
        );
      }
      const token = await this.logical("/auth/token", (deadline) =>
        this.transport.call("POST", "/auth/token", {}, authTokenReplySchema, { ...options, deadline }),
      );
      this.transport.setCredential(token.jwt);
    }
    this.clientConfigValue = config;
    return config;
  }

  /** GET /healthz. */
  async healthz(options: Signal = {}): Promise<{ status: "ok" }> {
    return this.logical("/healthz", (deadline) =>
      this.transport.call("GET", "/healthz", undefined, healthReplySchema, { ...options, deadline }),
    );
  }

  /** GET /get_server_capabilities: the names of the base models the server serves. */
  async getServerCapabilities(options: Signal = {}): Promise<string[]> {
    const reply = await this.logical("/get_server_capabilities", (deadline) =>
      this.transport.call("GET", "/get_server_capabilities", undefined, serverCapabilitiesReplySchema, {
        ...options,
        deadline,
      }),
    );
    return reply.supported_models.flatMap((model) =>
      typeof model.model_name === "string" ? [model.model_name] : [],
    );
  }

  /** The handshake, then POST /create_session, then a heartbeat every `heartbeatIntervalMs` until `close`. */
  async createSession(tags: string[] = ["harness-s"], options: Signal = {}): Promise<string> {
    await this.handshake(options);
    const body = { tags, user_metadata: {}, sdk_version: this.sdkVersion, type: "create_session" };
    const reply = await this.logical("/create_session", (deadline) =>
      this.transport.call("POST", "/create_session", body, createSessionReplySchema, {
        ...options,
        deadline,
      }),
    );
    this.sessionIdValue = reply.session_id;
    this.startHeartbeat(reply.session_id);
    return reply.session_id;
  }

  private startHeartbeat(sessionId: string): void {
    this.heartbeatStop?.abort();
    const stop = new AbortController();
    this.heartbeatStop = stop;
    this.heartbeatLoop = (async () => {
      while (!stop.signal.aborted) {
        try {
          // the wall clock: heartbeats keep the session alive in real time, whatever clock the calls use
          await systemClock.sleep(this.heartbeatIntervalMs, stop.signal);
          const body = { session_id: sessionId, type: "session_heartbeat" };
          await this.transport.call("POST", "/session_heartbeat", body, sessionHeartbeatReplySchema, {
            signal: stop.signal,
            maxRetries: 0,
          });
          this.heartbeats++;
        } catch {
          // A missed heartbeat is retried at the next period; close() ends the loop.
        }
      }
    })();
  }

  /** Stops the heartbeat. Idempotent. */
  async close(): Promise<void> {
    this.heartbeatStop?.abort();
    await this.heartbeatLoop;
    this.heartbeatLoop = undefined;
  }

  /** Runs one logical call under its own deadline (`CallPolicy.deadlineMs`). */
  private async logical<T>(waitedOn: string, run: (deadline: CallDeadline) => Promise<T>): Promise<T> {
    const deadline = new CallDeadline(
      waitedOn,
      this.transport.clock,
      this.transport.policy,
      this.transport.onProgress,
    );
    try {
      return await run(deadline);
    } finally {
      deadline.end();
    }
  }

  /**
   * Sends a submission as the SDK's `execute_with_retries`: when a call's own retries run out on a
   * retryable failure, it is sent again as a new call (a new idempotency key) after min(2^n, 30) s,
   * within `resubmitWindowMs` and the deadline.
   */
  private async resubmit<T>(
    deadline: CallDeadline,
    send: () => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const started = this.transport.clock.now();
    for (let failures = 0; ; failures++) {
      try {
        return await send();
      } catch (error) {
        const retryable = error instanceof TinkerApiError && error.isRetryable;
        const elapsed = this.transport.clock.now() - started;
        if (!retryable || elapsed >= this.transport.policy.resubmitWindowMs) throw error;
        deadline.update(`${error.message}; sent again as a new call`);
        await this.transport.clock.sleep(deadline.pause(connectionBackoffMs(failures)), signal);
      }
    }
  }

  /**
   * POST /create_model: a LoRA model on `baseModel`. The reply is a future whose result names the
   * model (thinking-machines-lab/tinker `service_client.py` awaits it); SkyRL also names it at once.
   */
  async createModel(
    baseModel: string,
    loraConfig: LoraConfig,
    options: Signal = {},
  ): Promise<TrainingModelHandle> {
    const body = {
      session_id: this.sessionId,
      model_seq_id: this.modelCount++,
      base_model: baseModel,
      lora_config: loraConfig,
      type: "create_model",
    };
    const modelId = await this.logical("/create_model", async (deadline) => {
      const reply = await this.resubmit(
        deadline,
        () =>
          this.transport.call("POST", "/create_model", body, createModelReplySchema, {
            ...options,
            deadline,
          }),
        options.signal,
      );
      if (reply.request_id === undefined) return reply.model_id;
      const result = await awaitFuture(this.transport, reply.request_id, createModelResultSchema, {
        deadline,
        ...signalOf(options),
      });
      return result.model_id;
    });
    if (modelId === undefined) throw new Error("create_model answered neither a model id nor a future");
    return { modelId, baseModel, nextSeqId: 1 };
  }

  /** POST /get_info. */
  async getInfo(modelId: string, options: Signal = {}): Promise<z.infer<typeof modelInfoReplySchema>> {
    const body = { model_id: modelId, type: "get_info" };
    return this.logical("/get_info", (deadline) =>
      this.transport.call("POST", "/get_info", body, modelInfoReplySchema, { ...options, deadline }),
    );
  }

  /**
   * Sends a queued request and waits for its future, under one deadline. `resend` (sampling only)
   * builds the request again with a new seq_id after 410.
   */
  async submit<T>(
    endpoint: string,
    body: unknown,
    schema: z.ZodType<T>,
    options: Signal & { resend?: () => unknown; maxReplyBytes?: number } = {},
  ): Promise<T> {
    return this.logical(endpoint, async (deadline) => {
      const send = (payload: unknown) =>
        this.resubmit(
          deadline,
          async () =>
            (
              await this.transport.call("POST", endpoint, payload, futureReplySchema, {
                ...signalOf(options),
                deadline,
              })
            ).request_id,
          options.signal,
        );
      const requestId = await send(body);
      const { resend } = options;
      return awaitFuture(this.transport, requestId, schema, {
        deadline,
        ...signalOf(options),
        ...(resend === undefined ? {} : { resend: () => send(resend()) }),
        ...(options.maxReplyBytes === undefined ? {} : { maxReplyBytes: options.maxReplyBytes }),
      });
    });
  }

  /**
   * POST /forward_backward: accumulates gradients of `lossFunction` over `data`. The batch is split
   * as the SDK splits it (the server's `fwdbwd_max_chunk_len` datums, 1,024 by default, and
   * `fwdbwd_max_chunk_bytes_count` estimated bytes, 5 MB), each chunk with its own seq_id, sent in
   * order; the results are combined as the SDK's `chunked_fwdbwd_helpers.py` combines them.
   */
  async forwardBackward(
    model: TrainingModelHandle,
    data: Datum[],
    lossFunction: LossFunction,
    options: Signal & { lossFunctionConfig?: Record<string, number> } = {},
  ): Promise<ForwardBackwardResult> {
    if (data.length === 0)
      throw new TinkerApiError("forward_backward: no data", { endpoint: "/forward_backward" });
    const config = this.clientConfigValue ?? clientConfigReplySchema.parse({});
    const results: ForwardBackwardResult[] = [];
    for (const chunk of splitBatch(data, config.fwdbwd_max_chunk_len, config.fwdbwd_max_chunk_bytes_count)) {
      const body = {
        model_id: model.modelId,
        seq_id: model.nextSeqId++,
        forward_backward_input: {
          data: chunk,
          loss_fn: lossFunction,
          // the SDK leaves a null loss_fn_config out of the body
          ...(options.lossFunctionConfig === undefined ? {} : { loss_fn_config: options.lossFunctionConfig }),
        },
      };
      const payload = this.forwardBackwardEncoding === "protobuf" ? encodeForwardBackward(body) : body;
      results.push(
        await this.submit("/forward_backward", payload, forwardBackwardResultSchema, signalOf(options)),
      );
    }
    return combineForwardBackward(results);
  }

  /** POST /optim_step: one Adam step on the accumulated gradients (every Adam field sent, SDK defaults filled). */
  async optimStep(
    model: TrainingModelHandle,
    adamParams: AdamParams,
    options: Signal = {},
  ): Promise<Record<string, number>> {
    const body = {
      model_id: model.modelId,
      seq_id: model.nextSeqId++,
      adam_params: { ...sdkAdamDefaults, ...adamParams },
      type: "optim_step",
    };
    const result = await this.submit("/optim_step", body, optimStepResultSchema, options);
    return result.metrics ?? {};
  }

  /** POST /save_weights: weights and optimiser state; returns `tinker://MODEL/weights/NAME`. */
  async saveWeights(model: TrainingModelHandle, name: string, options: Signal = {}): Promise<string> {
    const body = { model_id: model.modelId, path: name, seq_id: model.nextSeqId++, type: "save_weights" };
    return (await this.submit("/save_weights", body, saveWeightsResultSchema, options)).path;
  }

  /** POST /save_weights_for_sampler; returns `tinker://MODEL/sampler_weights/NAME`. */
  async saveWeightsForSampler(
    model: TrainingModelHandle,
    name: string,
    options: Signal = {},
  ): Promise<string> {
    const body = {
      model_id: model.modelId,
      path: name,
      seq_id: model.nextSeqId++,
      type: "save_weights_for_sampler",
    };
    const result = await this.submit(
      "/save_weights_for_sampler",
      body,
      saveWeightsForSamplerResultSchema,
      options,
    );
    if (typeof result.path !== "string") {
      throw new Error(`save_weights_for_sampler answered no path for ${name}`);
    }
    return result.path;
  }

  /**
   * POST /save_weights_for_sampler without a name (the SDK's `save_weights_and_get_sampling_client`):
   * ephemeral sampler weights and the sampling session the server binds to them.
   */
  async createEphemeralSampler(
    model: TrainingModelHandle,
    options: Signal = {},
  ): Promise<SamplingSessionHandle> {
    const body = {
      model_id: model.modelId,
      seq_id: model.nextSeqId++,
      sampling_session_seq_id: this.samplingSessionCount++,
      type: "save_weights_for_sampler",
    };
    const result = await this.submit(
      "/save_weights_for_sampler",
      body,
      saveWeightsForSamplerResultSchema,
      options,
    );
    if (typeof result.sampling_session_id !== "string") {
      throw new TinkerApiError("save_weights_for_sampler (ephemeral) answered no sampling_session_id", {
        endpoint: "/save_weights_for_sampler",
      });
    }
    return {
      samplingSessionId: result.sampling_session_id,
      source: result.path ?? model.modelId,
      nextSeqId: 0,
    };
  }

  /** POST /load_weights (a model's first request): weights, and optimiser state when asked. */
  async loadWeights(
    model: TrainingModelHandle,
    path: string,
    options: Signal & { optimizer?: boolean } = {},
  ): Promise<void> {
    const body = {
      model_id: model.modelId,
      path,
      optimizer: options.optimizer ?? true,
      seq_id: model.nextSeqId++,
      type: "load_weights",
    };
    await this.submit("/load_weights", body, loadWeightsResultSchema, signalOf(options));
  }

  /** POST /weights_info: what a training checkpoint is (base model, LoRA rank). */
  async weightsInfo(
    tinkerPath: string,
    options: Signal = {},
  ): Promise<z.infer<typeof weightsInfoReplySchema>> {
    return this.logical("/weights_info", (deadline) =>
      this.transport.call("POST", "/weights_info", { tinker_path: tinkerPath }, weightsInfoReplySchema, {
        ...options,
        deadline,
      }),
    );
  }

  /** GET /samplers/{id}: a sampling session's base model and weights. */
  async getSampler(
    samplingSessionId: string,
    options: Signal = {},
  ): Promise<z.infer<typeof samplerReplySchema>> {
    const endpoint = `/samplers/${encodeURIComponent(samplingSessionId)}`;
    return this.logical(endpoint, (deadline) =>
      this.transport.call("GET", endpoint, undefined, samplerReplySchema, { ...options, deadline }),
    );
  }

  /** POST /unload_model: frees the model on the server (SkyRL answers a future, awaited here). */
  async unloadModel(model: TrainingModelHandle, options: Signal = {}): Promise<void> {
    const body = { model_id: model.modelId, type: "unload_model" };
    await this.logical("/unload_model", async (deadline) => {
      const reply = await this.transport.call("POST", "/unload_model", body, unloadModelReplySchema, {
        ...options,
        deadline,
      });
      if (reply.request_id !== undefined) {
        await awaitFuture(this.transport, reply.request_id, unloadModelReplySchema, {
          deadline,
          ...signalOf(options),
        });
      }
    });
  }

  /** POST /create_sampling_session on saved sampler weights or the base model. */
  async createSamplingSession(
    source: { modelPath: string } | { baseModel: string },
    options: Signal = {},
  ): Promise<SamplingSessionHandle> {
    const body = {
      session_id: this.sessionId,
      sampling_session_seq_id: this.samplingSessionCount++,
      ...("modelPath" in source ? { model_path: source.modelPath } : { base_model: source.baseModel }),
      type: "create_sampling_session",
    };
    const reply = await this.logical("/create_sampling_session", (deadline) =>
      this.transport.call("POST", "/create_sampling_session", body, createSamplingSessionReplySchema, {
        ...options,
        deadline,
      }),
    );
    const name = "modelPath" in source ? source.modelPath : source.baseModel;
    return { samplingSessionId: reply.sampling_session_id, source: name, nextSeqId: 0 };
  }

  /**
   * POST /asample on a sampling session. After 410 the request is sent again with a new seq_id (the
   * SDK's sampling retry handler draws a new request id); the reply is capped by what was asked
   * (`num_samples` x `max_tokens`), and a sequence longer than `max_tokens` is refused.
   */
  async sample(
    session: SamplingSessionHandle,
    prompt: ModelInput,
    numSamples: number,
    samplingParams: SamplingParams,
    options: Signal = {},
  ): Promise<SampleResult> {
    const build = () => ({
      num_samples: numSamples,
      prompt,
      sampling_params: samplingParams,
      sampling_session_id: session.samplingSessionId,
      seq_id: session.nextSeqId++,
      type: "sample",
    });
    const result = await this.submit("/asample", build(), sampleResultSchema, {
      ...signalOf(options),
      resend: build,
      maxReplyBytes: sampleReplyBytes(numSamples, samplingParams.max_tokens),
    });
    checkSampleResult(result, numSamples, samplingParams.max_tokens);
    return result;
  }
}

/** Bytes a sample reply may take: 64 KiB plus 64 bytes per asked token (id and log-probability as JSON). */
export function sampleReplyBytes(numSamples: number, maxTokens: number): number {
  return 65_536 + numSamples * maxTokens * 64;
}

function checkSampleResult(result: SampleResult, numSamples: number, maxTokens: number): void {
  if (result.sequences.length > numSamples) {
    throw new TinkerApiError(
      `asample answered ${result.sequences.length} sequences, ${numSamples} were asked`,
      {
        endpoint: "/asample",
      },
    );
  }
  for (const [index, sequence] of result.sequences.entries()) {
    if (sequence.tokens.length > maxTokens) {
      throw new TinkerApiError(
        `asample sequence ${index} has ${sequence.tokens.length} tokens, max_tokens was ${maxTokens}`,
        { endpoint: "/asample" },
      );
    }
    if (
      sequence.logprobs !== null &&
      sequence.logprobs !== undefined &&
      sequence.logprobs.length !== sequence.tokens.length
    ) {
      throw new TinkerApiError(
        `asample sequence ${index} has ${sequence.tokens.length} tokens and ${sequence.logprobs.length} log-probabilities`,
        { endpoint: "/asample" },
      );
    }
  }
}

function signalOf(options: Signal): Signal {
  return options.signal === undefined ? {} : { signal: options.signal };
}
