import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { z } from "zod";
import {
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
} from "../protocol/requests.js";
import { type Fault, FaultPlan } from "./fault-plan.js";
import { HttpRefusal, ServerState } from "./server-state.js";

/** Options of the test server. */
export interface TinkerTestServerOptions {
  /** Base models served: name -> vocabulary size and weight seed. */
  baseModels: Record<string, { vocabSize: number; seed?: number }>;
  /** How long retrieve_future waits for a pending future before 408 (default 2,000 ms). */
  retrieveWaitMs?: number;
  /** Faults to inject (default: none). */
  faults?: FaultPlan;
}

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
}

type Reply = { status: number; body: unknown };

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
  private readonly idempotent = new Map<string, Reply>();
  private readonly retrieveWaitMs: number;
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
    const body = await readBody(request);
    const idempotencyKey = header(request, "x-idempotency-key");
    const received: ReceivedRequest = {
      endpoint,
      idempotencyKey,
      apiKey: header(request, "x-api-key"),
      body,
    };
    this.received.push(received);
    const fault = this.faults.take(endpoint);
    if (fault?.kind === "drop-before") {
      request.socket.destroy();
      return;
    }
    const immediate = faultReply(fault, endpoint, body);
    if (immediate !== undefined) {
      received.status = immediate.status;
      send(response, immediate);
      return;
    }
    const cacheKey =
      idempotencyKey === undefined || endpoint === "/retrieve_future"
        ? undefined
        : `${endpoint} ${idempotencyKey}`;
    const cached = cacheKey === undefined ? undefined : this.idempotent.get(cacheKey);
    const started = performance.now();
    const reply = cached ?? (await this.route(endpoint, request.method ?? "GET", body, fault));
    this.handlerMs += performance.now() - started;
    if (cacheKey !== undefined && reply.status < 500) this.idempotent.set(cacheKey, reply);
    if (fault?.kind === "drop-after") {
      request.socket.destroy();
      return;
    }
    received.status = reply.status;
    send(response, reply);
  }

  private async route(
    endpoint: string,
    method: string,
    body: unknown,
    fault: Fault | undefined,
  ): Promise<Reply> {
    const delayMs = fault?.kind === "slow" ? fault.delayMs : 0;
    try {
      if (method === "GET") return this.routeGet(endpoint);
      if (endpoint === "/retrieve_future")
        return await this.retrieve(parse(retrieveFutureRequestSchema, body).request_id);
      return this.routePost(endpoint, body, delayMs);
    } catch (error) {
      if (error instanceof HttpRefusal) return { status: error.status, body: { detail: error.detail } };
      if (error instanceof ValidationRefusal) return { status: 422, body: { detail: error.message } };
      throw error;
    }
  }

  private routeGet(endpoint: string): Reply {
    if (endpoint === "/healthz") return ok({ status: "ok" });
    if (endpoint === "/get_server_capabilities") {
      return ok({
        supported_models: [...this.state.baseModels.keys()].map((model_name) => ({ model_name })),
      });
    }
    return { status: 404, body: { detail: "Not Found" } };
  }

  private routePost(endpoint: string, body: unknown, delayMs: number): Reply {
    const state = this.state;
    switch (endpoint) {
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
    const future = (modelId: string, seqId: number | null | undefined, run: () => unknown) =>
      ok({ ...futureIds(state.enqueue(modelId, seqId, body, run, delayMs)), status: "pending" });
    switch (endpoint) {
      case "/forward_backward": {
        const request = parse(forwardBackwardRequestSchema, body);
        return future(request.model_id, request.seq_id, () => state.forwardBackward(request));
      }
      case "/optim_step": {
        const request = parse(optimStepRequestSchema, body);
        return future(request.model_id, request.seq_id, () =>
          state.optimStep(request.model_id, request.adam_params),
        );
      }
      case "/save_weights": {
        const request = parse(saveWeightsRequestSchema, body);
        return future(request.model_id, request.seq_id, () => state.saveWeights(request));
      }
      case "/save_weights_for_sampler": {
        const request = parse(saveWeightsForSamplerRequestSchema, body);
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
    return ok({
      model_id: model.id,
      base_model: request.base_model,
      lora_config: request.lora_config,
      status: "created",
      request_id: future.id,
    });
  }

  private getInfo(modelId: string): Reply {
    const model = this.state.model(modelId);
    return ok({
      model_id: model.id,
      status: "ready",
      model_data: { base_model: model.baseModel, model_name: model.id },
    });
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
      if (performance.now() >= deadline)
        return { status: 408, body: { detail: "Timeout waiting for result" } };
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(10, Math.max(1, future.readyAt - performance.now()))),
      );
    }
    if (future.error !== undefined) return { status: 400, body: { detail: future.error.error } };
    return ok(future.result);
  }
}

class ValidationRefusal extends Error {}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ValidationRefusal(`${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid body"}`);
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

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}

function send(response: ServerResponse, reply: Reply): void {
  const text = JSON.stringify(reply.body);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (reply.status === 429) headers["retry-after"] = "0";
  response.writeHead(reply.status, headers);
  response.end(text);
}
