import type { z } from "zod";
import type { Datum, LossFunction, ModelInput } from "../protocol/datum.js";
import {
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
  saveWeightsForSamplerResultSchema,
  saveWeightsResultSchema,
  serverCapabilitiesReplySchema,
  sessionHeartbeatReplySchema,
} from "../protocol/replies.js";
import type { AdamParams, LoraConfig, SamplingParams } from "../protocol/requests.js";
import { awaitFuture } from "./futures.js";
import { TinkerTransport, type TransportOptions } from "./transport.js";

/** Options of a Tinker client. */
export interface TinkerClientOptions extends TransportOptions {
  /** Heartbeat period in ms (default 10,000, as the SDK's session heartbeat). */
  heartbeatIntervalMs?: number;
  /** SDK version announced in create_session (default `0.24.1`, the newest SkyRL accepts as JSON). */
  sdkVersion?: string;
  /** Pause between `try_again` polls in ms (default 50). */
  tryAgainDelayMs?: number;
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
 * Client of the Tinker API (Thinking Machines' service or SkyRL's `skyrl.tinker.api`). One session,
 * kept alive by a heartbeat until `close`; each mutating call gets its own idempotency key and, for
 * a model's training calls, the next seq_id of that model.
 */
export class TinkerClient {
  readonly transport: TinkerTransport;
  private readonly heartbeatIntervalMs: number;
  private readonly sdkVersion: string;
  private readonly tryAgainDelayMs: number;
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
    this.tryAgainDelayMs = options.tryAgainDelayMs ?? 50;
  }

  /** The session id (after `createSession`). */
  get sessionId(): string {
    if (this.sessionIdValue === undefined) throw new Error("TinkerClient: call createSession first");
    return this.sessionIdValue;
  }

  /** GET /healthz. */
  async healthz(options: Signal = {}): Promise<{ status: "ok" }> {
    return this.transport.call("GET", "/healthz", undefined, healthReplySchema, options);
  }

  /** GET /get_server_capabilities: the base models the server serves. */
  async getServerCapabilities(options: Signal = {}): Promise<string[]> {
    const reply = await this.transport.call(
      "GET",
      "/get_server_capabilities",
      undefined,
      serverCapabilitiesReplySchema,
      options,
    );
    return reply.supported_models.map((model) => model.model_name);
  }

  /** POST /create_session, then a heartbeat every `heartbeatIntervalMs` until `close`. */
  async createSession(tags: string[] = ["harness-s"], options: Signal = {}): Promise<string> {
    const body = { tags, user_metadata: null, sdk_version: this.sdkVersion, type: "create_session" };
    const reply = await this.transport.call(
      "POST",
      "/create_session",
      body,
      createSessionReplySchema,
      options,
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
          await this.transport.clock.sleep(this.heartbeatIntervalMs, stop.signal);
          const body = { session_id: sessionId, type: "session_heartbeat" };
          await this.transport.call("POST", "/session_heartbeat", body, sessionHeartbeatReplySchema, {
            signal: stop.signal,
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
    const idempotencyKey = this.transport.newIdempotencyKey();
    const send = () =>
      this.transport.call("POST", "/create_model", body, createModelReplySchema, {
        ...options,
        idempotencyKey,
      });
    const reply = await send();
    let modelId = reply.model_id;
    if (reply.request_id !== undefined) {
      const resend = async () => (await send()).request_id ?? reply.request_id ?? "";
      const result = await awaitFuture(this.transport, reply.request_id, createModelResultSchema, resend, {
        tryAgainDelayMs: this.tryAgainDelayMs,
        ...options,
      });
      modelId = result.model_id;
    }
    if (modelId === undefined) throw new Error("create_model answered neither a model id nor a future");
    return { modelId, baseModel, nextSeqId: 1 };
  }

  /** POST /get_info. */
  async getInfo(modelId: string, options: Signal = {}): Promise<z.infer<typeof modelInfoReplySchema>> {
    const body = { model_id: modelId, type: "get_info" };
    return this.transport.call("POST", "/get_info", body, modelInfoReplySchema, options);
  }

  /**
   * Sends a queued request and waits for its future. The idempotency key is drawn once, so the
   * submission's retries and a re-send after 410 all carry it (and the same seq_id in `body`).
   */
  async submit<T>(endpoint: string, body: unknown, schema: z.ZodType<T>, options: Signal = {}): Promise<T> {
    const idempotencyKey = this.transport.newIdempotencyKey();
    const send = async () => {
      const reply = await this.transport.call("POST", endpoint, body, futureReplySchema, {
        ...options,
        idempotencyKey,
      });
      return reply.request_id;
    };
    const requestId = await send();
    return awaitFuture(this.transport, requestId, schema, send, {
      tryAgainDelayMs: this.tryAgainDelayMs,
      ...options,
    });
  }

  /** POST /forward_backward: accumulates gradients of `lossFunction` over `data`. */
  async forwardBackward(
    model: TrainingModelHandle,
    data: Datum[],
    lossFunction: LossFunction,
    options: Signal & { lossFunctionConfig?: Record<string, number> } = {},
  ): Promise<ForwardBackwardResult> {
    const body = {
      model_id: model.modelId,
      seq_id: model.nextSeqId++,
      forward_backward_input: {
        data,
        loss_fn: lossFunction,
        loss_fn_config: options.lossFunctionConfig ?? null,
      },
    };
    return this.submit("/forward_backward", body, forwardBackwardResultSchema, signalOf(options));
  }

  /** POST /optim_step: one Adam step on the accumulated gradients. */
  async optimStep(
    model: TrainingModelHandle,
    adamParams: AdamParams,
    options: Signal = {},
  ): Promise<Record<string, number>> {
    const body = { model_id: model.modelId, seq_id: model.nextSeqId++, adam_params: adamParams };
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
    const reply = await this.transport.call(
      "POST",
      "/create_sampling_session",
      body,
      createSamplingSessionReplySchema,
      options,
    );
    const name = "modelPath" in source ? source.modelPath : source.baseModel;
    return { samplingSessionId: reply.sampling_session_id, source: name, nextSeqId: 0 };
  }

  /** POST /asample on a sampling session. */
  async sample(
    session: SamplingSessionHandle,
    prompt: ModelInput,
    numSamples: number,
    samplingParams: SamplingParams,
    options: Signal = {},
  ): Promise<SampleResult> {
    const body = {
      num_samples: numSamples,
      prompt,
      sampling_params: samplingParams,
      sampling_session_id: session.samplingSessionId,
      seq_id: session.nextSeqId++,
      type: "sample",
    };
    return this.submit("/asample", body, sampleResultSchema, options);
  }
}

function signalOf(options: Signal): Signal {
  return options.signal === undefined ? {} : { signal: options.signal };
}
