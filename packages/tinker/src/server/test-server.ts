import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { z } from "zod";
import {
  decodeForwardBackward,
  encodeResult,
  protobufContentType,
} from "../protocol/forward-backward-proto.js";
import { type ClientConfig, clientConfigReplySchema } from "../protocol/replies.js";
import {
  clientConfigRequestSchema,
  createModelRequestSchema,
  createSamplingSessionRequestSchema,
  createSessionRequestSchema,
  forwardBackwardRequestSchema,
  getInfoRequestSchema,
  loadWeightsRequestSchema,
  optimStepRequestSchema,
  retrieveFutureRequestSchema,
  sampleRequestSchema,
  saveWeightsForSamplerRequestSchema,
  saveWeightsRequestSchema,
  sessionHeartbeatRequestSchema,
  telemetryRequestSchema,
  unloadModelRequestSchema,
  weightsInfoRequestSchema,
} from "../protocol/requests.js";
import { type Fault, FaultPlan } from "./fault-plan.js";
import { HttpRefusal, ServerState, samplerCheckpointName } from "./server-state.js";

/**
 * Which service the test server behaves as:
 * - `tinker` (Thinking Machines' service, as the SDK expects it): a model's requests run in seq_id
 *   order (a gap waits), repeated idempotency keys are answered from a cache, a failed future is
 *   200 `{error, category}`, get_info has the SDK's shape, create_model answers only a future;
 * - `skyrl` (NovaSky-AI/SkyRL `skyrl/tinker/api.py`): requests run in arrival order, idempotency
 *   keys are ignored, forward_backward/forward/optim_step are de-duplicated by (model, seq_id) only,
 *   a save to an existing checkpoint name is 409, a failed future is 400 `{detail}`, get_info has
 *   SkyRL's shape, create_model also names the model at once, /client/config answers only
 *   `pjwt_auth_enabled: false`.
 */
export type TestServerMode = "tinker" | "skyrl";

/** The test server's modes. */
export const testServerModes: readonly TestServerMode[] = ["tinker", "skyrl"];

/** Options of the test server. */
export interface TinkerTestServerOptions {
  /** Base models served: name -> vocabulary size and weight seed. */
  baseModels: Record<string, { vocabSize: number; seed?: number }>;
  /** Which service to behave as (default `tinker`). */
  mode?: TestServerMode;
  /** How long retrieve_future waits for a pending future before 408 / try_again (default 2,000 ms). */
  retrieveWaitMs?: number;
  /** Faults to inject (default: none). */
  faults?: FaultPlan;
  /** Flags answered by /client/config (tinker mode; SkyRL's minimal /client/config answers the defaults). */
  clientConfig?: Partial<ClientConfig>;
  /** More flags answered by /client/config in either mode, e.g. the SDK's `use_pyqwest_transport`. */
  extraClientConfig?: Record<string, unknown>;
  /** API keys /auth/token accepts when `clientConfig.pjwt_auth_enabled` (then every call needs its JWT). */
  apiKeys?: string[];
  /** Called with the time a `held` fault stands for (a test's fake clock advances by it). */
  onHold?: (milliseconds: number) => void;
}

/** Paths answered without a credential. */
const openEndpoints = new Set(["/client/config", "/auth/token", "/healthz"]);

/** One request the server received. */
export interface ReceivedRequest {
  /** Endpoint path without `/api/v1`. */
  endpoint: string;
  /** `X-Idempotency-Key`, when sent. */
  idempotencyKey: string | undefined;
  /** `X-API-Key`, when sent. */
  apiKey: string | undefined;
  /** Parsed JSON body. */
  body: unknown;
  /** HTTP status answered (undefined when the connection was dropped). */
  status?: number;
  /** The Content-Type it was sent with (`application/x-protobuf` for an SDK 0.25 forward_backward). */
  contentType?: string;
}

type Reply = { status: number; body: unknown; binary?: Uint8Array };

/**
 * Test equipment: a Tinker API server on 127.0.0.1 (node:http) backed by the tiny model of
 * `tiny-model.ts`. It speaks the JSON protocol of SkyRL's `skyrl/tinker/api.py` (futures, seq_id
 * order and 409 on reuse, load_weights only first, 408 when a wait times out) and can inject faults.
 * It is not Tinker and not SkyRL; the client that talks to it is the one that talks to them.
 */
export class TinkerTestServer {
  readonly state: ServerState;
  readonly faults: FaultPlan;
  /** Every request received, in order. */
  readonly received: ReceivedRequest[] = [];
  /** Milliseconds spent inside handlers (server share of the time). */
  handlerMs = 0;
  readonly mode: TestServerMode;
  private readonly idempotent = new Map<string, Reply>();
  private readonly retrieveWaitMs: number;
  private readonly clientConfig: ClientConfig;
  private readonly extraClientConfig: Record<string, unknown>;
  private readonly apiKeys: ReadonlySet<string>;
  private readonly jwts = new Set<string>();
  private readonly onHold: ((milliseconds: number) => void) | undefined;
  private server: Server | undefined;
  private urlValue: string | undefined;

  constructor(options: TinkerTestServerOptions) {
    const models = new Map(
      Object.entries(options.baseModels).map(([name, base]) => [
        name,
        { vocabSize: base.vocabSize, seed: base.seed ?? 1 },
      ]),
    );
    this.state = new ServerState(models, () => performance.now());
    this.faults = options.faults ?? new FaultPlan();
    this.retrieveWaitMs = options.retrieveWaitMs ?? 2000;
    this.mode = options.mode ?? "tinker";
    this.clientConfig = clientConfigReplySchema.parse(
      this.mode === "skyrl" ? {} : (options.clientConfig ?? {}),
    );
    this.apiKeys = new Set(options.apiKeys ?? []);
    this.extraClientConfig = options.extraClientConfig ?? {};
    this.onHold = options.onHold;
  }

  /** `http://127.0.0.1:PORT` once started. */
  get url(): string {
    if (this.urlValue === undefined) throw new Error("TinkerTestServer: not started");
    return this.urlValue;
  }

  /** Listens on 127.0.0.1 (port 0: any free port). */
  async start(port = 0): Promise<string> {
    const server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) send(response, { status: 500, body: { detail: String(error) } });
      });
    });
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    this.server = server;
    this.urlValue = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.urlValue;
  }

  /** Stops listening and closes open connections. */
  async close(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const endpoint = (request.url ?? "").replace(/^\/api\/v1/, "").split("?")[0] ?? "";
    const contentType = header(request, "content-type") ?? "";
    const decoded = decodeBody(
      endpoint,
      contentType,
      header(request, "content-encoding"),
      await readRaw(request),
    );
    if ("refusal" in decoded) {
      const refused = { status: 422, body: { detail: [fastApiIssue(["body"], decoded.refusal)] } };
      this.received.push({
        endpoint,
        idempotencyKey: header(request, "x-idempotency-key"),
        apiKey: header(request, "x-api-key"),
        body: undefined,
        contentType,
        status: 422,
      });
      send(response, refused);
      return;
    }
    const body = decoded.body;
    const idempotencyKey = header(request, "x-idempotency-key");
    const received: ReceivedRequest = {
      endpoint,
      idempotencyKey,
      apiKey: header(request, "x-api-key"),
      body,
      contentType,
    };
    this.received.push(received);
    const refused = this.checkCredential(endpoint, received.apiKey);
    if (refused !== undefined) {
      received.status = refused.status;
      send(response, refused);
      return;
    }
    const fault = this.faults.take(endpoint);
    if (fault?.kind === "drop-before") {
      request.socket.destroy();
      return;
    }
    const immediate = this.faultReply(fault, endpoint, body);
    if (immediate !== undefined) {
      received.status = immediate.status;
      send(response, immediate);
      return;
    }
    const cacheKey =
      this.mode === "skyrl" || idempotencyKey === undefined || endpoint === "/retrieve_future"
        ? undefined
        : `${endpoint} ${idempotencyKey}`;
    const cached = cacheKey === undefined ? undefined : this.idempotent.get(cacheKey);
    const started = performance.now();
    const reply =
      cached ?? (await this.route(endpoint, request.method ?? "GET", body, fault, received.apiKey));
    this.handlerMs += performance.now() - started;
    if (cacheKey !== undefined && reply.status < 500) this.idempotent.set(cacheKey, reply);
    if (fault?.kind === "drop-after") {
      request.socket.destroy();
      return;
    }
    received.status = reply.status;
    send(response, withProtobufResult(endpoint, header(request, "accept"), reply));
  }

  private async route(
    endpoint: string,
    method: string,
    body: unknown,
    fault: Fault | undefined,
    apiKey?: string,
  ): Promise<Reply> {
    const delayMs = fault?.kind === "slow" ? fault.delayMs : 0;
    try {
      if (method === "GET") return this.routeGet(endpoint);
      if (endpoint === "/retrieve_future")
        return await this.retrieve(parse(retrieveFutureRequestSchema, body).request_id);
      return this.routePost(endpoint, body, delayMs, apiKey);
    } catch (error) {
      if (error instanceof HttpRefusal) return { status: error.status, body: { detail: error.detail } };
      if (error instanceof ValidationRefusal) return { status: 422, body: { detail: error.detail } };
      throw error;
    }
  }

  /** With a JWT exchange on, every call but the handshake needs a JWT minted by /auth/token. */
  private checkCredential(endpoint: string, apiKey: string | undefined): Reply | undefined {
    if (!this.clientConfig.pjwt_auth_enabled || openEndpoints.has(endpoint)) return undefined;
    if (apiKey !== undefined && this.jwts.has(apiKey)) return undefined;
    return { status: 401, body: { detail: "Invalid JWT" } };
  }

  private authToken(apiKey: string | undefined): Reply {
    if (!this.clientConfig.pjwt_auth_enabled) return { status: 404, body: { detail: "Not Found" } };
    if (apiKey === undefined || !this.apiKeys.has(apiKey)) {
      return { status: 401, body: { detail: "Invalid API key" } };
    }
    const payload = Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600 })).toString(
      "base64url",
    );
    const jwt = `e30.${payload}.${randomUUID()}`;
    this.jwts.add(jwt);
    return ok({ jwt });
  }

  private routeGet(endpoint: string): Reply {
    if (endpoint === "/healthz") return ok({ status: "ok" });
    if (endpoint.startsWith("/samplers/")) return this.getSampler(decodeURIComponent(endpoint.slice(10)));
    if (endpoint === "/get_server_capabilities") {
      return ok({
        supported_models: [...this.state.baseModels.keys()].map((model_name) => ({ model_name })),
      });
    }
    return { status: 404, body: { detail: "Not Found" } };
  }

  private routePost(endpoint: string, body: unknown, delayMs: number, apiKey?: string): Reply {
    const state = this.state;
    switch (endpoint) {
      case "/client/config":
        parse(clientConfigRequestSchema, body);
        return ok({
          ...(this.mode === "skyrl" ? { pjwt_auth_enabled: false } : this.clientConfig),
          ...this.extraClientConfig,
        });
      case "/auth/token":
        return this.authToken(apiKey);
      case "/telemetry":
        parse(telemetryRequestSchema, body);
        return ok({ status: "accepted" });
      case "/weights_info":
        return this.weightsInfo(parse(weightsInfoRequestSchema, body).tinker_path);
      case "/unload_model":
        return this.unloadModel(parse(unloadModelRequestSchema, body).model_id);
      case "/create_session": {
        parse(createSessionRequestSchema, body);
        const id = state.nextId("session");
        state.sessions.set(id, { heartbeats: 0 });
        return ok({ type: "create_session", session_id: id });
      }
      case "/session_heartbeat": {
        const session = state.sessions.get(parse(sessionHeartbeatRequestSchema, body).session_id);
        if (session === undefined) throw new HttpRefusal(404, "Session not found");
        session.heartbeats++;
        return ok({ type: "session_heartbeat" });
      }
      case "/create_model":
        return this.createModel(parse(createModelRequestSchema, body));
      case "/get_info":
        return this.getInfo(parse(getInfoRequestSchema, body).model_id);
      case "/create_sampling_session":
        return this.createSamplingSession(parse(createSamplingSessionRequestSchema, body));
      default:
        return this.routeQueued(endpoint, body, delayMs);
    }
  }

  private routeQueued(endpoint: string, body: unknown, delayMs: number): Reply {
    const state = this.state;
    const skyrl = this.mode === "skyrl";
    // SkyRL passes seq_id to create_future only for forward_backward, forward and optim_step
    const rules = (deduplicated: boolean) => ({ dedupe: !skyrl || deduplicated, ordered: !skyrl });
    const future = (
      modelId: string,
      seqId: number | null | undefined,
      run: () => unknown,
      deduplicated = false,
    ) =>
      ok({
        ...futureIds(state.enqueue(modelId, seqId, body, run, delayMs, rules(deduplicated))),
        status: "pending",
      });
    switch (endpoint) {
      case "/forward_backward": {
        const request = parse(forwardBackwardRequestSchema, body);
        return future(request.model_id, request.seq_id, () => state.forwardBackward(request), true);
      }
      case "/optim_step": {
        const request = parse(optimStepRequestSchema, body);
        return future(
          request.model_id,
          request.seq_id,
          () => state.optimStep(request.model_id, request.adam_params),
          true,
        );
      }
      case "/save_weights": {
        const request = parse(saveWeightsRequestSchema, body);
        if (skyrl) state.checkNewCheckpoint(request.model_id, "weights", request.path);
        return future(request.model_id, request.seq_id, () => state.saveWeights(request));
      }
      case "/save_weights_for_sampler": {
        const request = parse(saveWeightsForSamplerRequestSchema, body);
        if (request.path == null && (request.sampling_session_seq_id == null || request.seq_id == null)) {
          throw new ValidationRefusal([
            fastApiIssue(
              ["body"],
              "Either 'path' or both 'sampling_session_seq_id' and 'seq_id' must be provided",
            ),
          ]);
        }
        if (skyrl)
          state.checkNewCheckpoint(request.model_id, "sampler_weights", samplerCheckpointName(request));
        return future(request.model_id, request.seq_id, () => state.saveWeightsForSampler(request));
      }
      case "/load_weights": {
        const request = parse(loadWeightsRequestSchema, body);
        state.checkLoad(request);
        return future(request.model_id, request.seq_id, () => state.loadWeights(request));
      }
      case "/asample":
        return this.sample(body, delayMs);
      default:
        return { status: 404, body: { detail: "Not Found" } };
    }
  }

  private createModel(request: z.infer<typeof createModelRequestSchema>): Reply {
    if (!this.state.sessions.has(request.session_id)) throw new HttpRefusal(404, "Session not found");
    const model = this.state.createModel(request.base_model, request.lora_config.seed);
    const future = {
      id: this.state.nextId("request"),
      readyAt: 0,
      done: true,
      result: {
        model_id: model.id,
        base_model: request.base_model,
        lora_config: request.lora_config,
        type: "create_model",
      },
    };
    this.state.futures.set(future.id, future);
    this.loraRanks.set(model.id, request.lora_config.rank);
    if (this.mode === "tinker") return ok({ request_id: future.id });
    return ok({
      model_id: model.id,
      base_model: request.base_model,
      lora_config: request.lora_config,
      status: "created",
      request_id: future.id,
    });
  }

  private readonly loraRanks = new Map<string, number>();

  private getInfo(modelId: string): Reply {
    const model = this.state.model(modelId);
    const rank = this.loraRanks.get(model.id) ?? 0;
    if (this.mode === "skyrl") {
      return ok({
        model_id: model.id,
        status: "created",
        model_data: { base_model: model.baseModel, lora_config: { rank }, model_name: model.baseModel },
      });
    }
    // the SDK's GetInfoResponse (tinker `types/_pydantic_types/get_info_response.py`)
    return ok({
      type: "get_info",
      model_data: { arch: "tiny-bag-bigram", model_name: model.baseModel, tokenizer_id: model.baseModel },
      model_id: model.id,
      is_lora: rank > 0,
      lora_rank: rank,
      model_name: model.baseModel,
    });
  }

  private weightsInfo(tinkerPath: string): Reply {
    const match = /^tinker:\/\/([^/]+)\/weights\/([^/]+)$/.exec(tinkerPath);
    if (match === null) {
      throw new HttpRefusal(
        400,
        "Invalid tinker path format. Expected: tinker://model_id/weights/checkpoint_id",
      );
    }
    const model = this.state.model(match[1] ?? "");
    if (!this.state.trainingCheckpoints.has(tinkerPath)) {
      throw new HttpRefusal(404, `Checkpoint not found: ${model.id}/${match[2]}`);
    }
    const rank = this.loraRanks.get(model.id) ?? 0;
    return ok({ base_model: model.baseModel, is_lora: rank > 0, lora_rank: rank });
  }

  private getSampler(samplerId: string): Reply {
    const source = this.state.samplingSessions.get(samplerId);
    if (source === undefined) return { status: 404, body: { detail: "Sampler not found" } };
    if (this.state.baseModels.has(source))
      return ok({ sampler_id: samplerId, base_model: source, model_path: null });
    const modelId = /^tinker:\/\/([^/]+)\//.exec(source)?.[1] ?? "";
    return ok({ sampler_id: samplerId, base_model: this.state.model(modelId).baseModel, model_path: source });
  }

  private unloadModel(modelId: string): Reply {
    this.state.model(modelId);
    this.state.models.delete(modelId);
    if (this.mode === "tinker") return ok({ model_id: modelId, type: "unload_model" });
    const id = this.state.nextId("request");
    this.state.futures.set(id, {
      id,
      readyAt: 0,
      done: true,
      result: { model_id: modelId, type: "unload_model" },
    });
    return ok({ request_id: id, model_id: modelId });
  }

  private createSamplingSession(request: z.infer<typeof createSamplingSessionRequestSchema>): Reply {
    if (!this.state.sessions.has(request.session_id)) throw new HttpRefusal(404, "Session not found");
    const source = request.model_path ?? request.base_model;
    if (source === null || source === undefined || (request.model_path && request.base_model)) {
      throw new HttpRefusal(400, "Exactly one of base_model or model_path must be provided");
    }
    this.state.weightsOf(source);
    const id = this.state.nextId("sampling");
    this.state.samplingSessions.set(id, source);
    return ok({ type: "create_sampling_session", sampling_session_id: id });
  }

  private sample(body: unknown, delayMs: number): Reply {
    const request = parse(sampleRequestSchema, body);
    const weights = this.state.samplerWeights(request);
    const future = {
      id: this.state.nextId("request"),
      readyAt: performance.now() + delayMs,
      done: false,
    } as const;
    const record = { ...future, result: this.state.sample(weights, request), done: true };
    this.state.futures.set(record.id, record);
    return ok({ ...futureIds(record.id), status: "pending" });
  }

  private async retrieve(requestId: string): Promise<Reply> {
    const future = this.state.futures.get(requestId);
    if (future === undefined) return { status: 404, body: { detail: "Future not found" } };
    const deadline = performance.now() + this.retrieveWaitMs;
    while (!future.done || performance.now() < future.readyAt) {
      if (performance.now() >= deadline) return this.pendingReply(requestId);
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(10, Math.max(1, future.readyAt - performance.now()))),
      );
    }
    if (future.error !== undefined) {
      if (this.mode === "skyrl") return { status: 400, body: { detail: future.error.error } };
      return ok({ error: future.error.error, category: future.error.category });
    }
    return ok(future.result);
  }

  /** A future still pending after the wait: SkyRL's 408, Tinker's try_again. */
  private pendingReply(requestId: string): Reply {
    if (this.mode === "skyrl") return { status: 408, body: { detail: "Timeout waiting for result" } };
    return ok({ type: "try_again", request_id: requestId, queue_state: "active" });
  }

  private faultReply(fault: Fault | undefined, endpoint: string, body: unknown): Reply | undefined {
    if (fault?.kind === "held") {
      this.onHold?.(fault.holdMs);
      return this.pendingReply(String((body as { request_id?: unknown } | undefined)?.request_id));
    }
    return faultReply(fault, endpoint, body);
  }
}

/** One entry of FastAPI's 422 `detail` list. */
interface FastApiIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
}

function fastApiIssue(loc: (string | number)[], msg: string, type = "value_error"): FastApiIssue {
  return { type, loc, msg };
}

/** A body that fails validation: FastAPI's 422 with a list of `{type, loc, msg}`. */
class ValidationRefusal extends Error {
  constructor(readonly detail: FastApiIssue[]) {
    super(detail.map((issue) => `${issue.loc.join(".")}: ${issue.msg}`).join("; "));
  }
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new ValidationRefusal(
    parsed.error.issues.map((issue) =>
      fastApiIssue(
        ["body", ...issue.path.map((part) => (typeof part === "number" ? part : String(part)))],
        issue.message,
        issue.code,
      ),
    ),
  );
}

function faultReply(fault: Fault | undefined, endpoint: string, body: unknown): Reply | undefined {
  if (fault === undefined) return undefined;
  const requestId = (body as { request_id?: unknown } | undefined)?.request_id;
  switch (fault.kind) {
    case "try_again":
      return ok({ type: "try_again", request_id: String(requestId), queue_state: "active" });
    case "408":
      return { status: 408, body: { detail: "Timeout waiting for result" } };
    case "410":
      return { status: 410, body: { detail: `promise for ${endpoint} expired` } };
    case "429":
      return { status: 429, body: { detail: "rate limited" } };
    case "500":
    case "503":
      return { status: Number(fault.kind), body: { detail: "server fault (injected)" } };
    default:
      return undefined;
  }
}

function futureIds(requestId: string): { request_id: string; future_id: string } {
  return { request_id: requestId, future_id: requestId };
}

function ok(body: unknown): Reply {
  return { status: 200, body };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readRaw(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A request body: JSON, or on forward_backward the SDK 0.25 protobuf (as SkyRL's api.py reads it).
 * A compressed body is refused: Node 20 has no zstd (SkyRL reads `Content-Encoding: zstd`).
 */
function decodeBody(
  endpoint: string,
  contentType: string,
  contentEncoding: string | undefined,
  raw: Buffer,
): { body: unknown } | { refusal: string } {
  if (contentEncoding !== undefined && contentEncoding !== "identity") {
    return { refusal: `Content-Encoding ${contentEncoding} is not read by the test server` };
  }
  if (contentType.includes(protobufContentType)) {
    if (endpoint !== "/forward_backward")
      return { refusal: "protobuf bodies are read only on /forward_backward" };
    try {
      const body = decodeForwardBackward(raw);
      if (body.forward_only)
        return { refusal: "forward_only (the SDK's forward) is not served by the test server" };
      return { body };
    } catch (error) {
      return { refusal: `Invalid proto forward_backward body: ${(error as Error).message}` };
    }
  }
  if (raw.byteLength === 0) return { body: undefined };
  try {
    return { body: JSON.parse(raw.toString("utf8")) };
  } catch {
    return { body: undefined };
  }
}

/**
 * A sample or forward_backward result as protobuf when the poll asks for it (SDK 0.25 sends
 * `Accept: application/x-protobuf`; SkyRL's retrieve_future answers so), else the JSON reply.
 */
function withProtobufResult(endpoint: string, accept: string | undefined, reply: Reply): Reply {
  if (
    endpoint !== "/retrieve_future" ||
    reply.status !== 200 ||
    !(accept ?? "").includes(protobufContentType)
  ) {
    return reply;
  }
  const binary = encodeResult(reply.body);
  return binary === undefined ? reply : { ...reply, binary };
}

function send(response: ServerResponse, reply: Reply): void {
  if (reply.binary !== undefined) {
    response.writeHead(reply.status, {
      "content-type": protobufContentType,
      "content-length": String(reply.binary.byteLength),
    });
    response.end(reply.binary);
    return;
  }
  const text = JSON.stringify(reply.body);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
  };
  if (reply.status === 429) headers["retry-after"] = "0";
  response.writeHead(reply.status, headers);
  response.end(text);
}
