import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startPair, tinyModel } from "../__fixtures__/harness.js";
import { type Datum, floatTensor, intTensor, tokensInput } from "../protocol/datum.js";
import type { AdamParams } from "../protocol/requests.js";
import { type TestServerMode, type TinkerTestServer, testServerModes } from "../server/test-server.js";
import { systemClock } from "./clock.js";
import { TinkerConflictError, TinkerRequestFailedError } from "./errors.js";
import type { TinkerClient } from "./tinker-client.js";

const adam: AdamParams = {
  learning_rate: 0.1,
  beta1: 0.9,
  beta2: 0.95,
  eps: 1e-8,
  weight_decay: 0,
  grad_clip_norm: 0,
};

function crossEntropyDatum(tokens: number[]): Datum {
  return {
    model_input: tokensInput(tokens.slice(0, -1)),
    loss_fn_inputs: {
      target_tokens: intTensor(tokens.slice(1)),
      weights: floatTensor(tokens.slice(1).map(() => 1)),
    },
  };
}

let open: { server: TinkerTestServer; client: TinkerClient }[] = [];
let mode: TestServerMode = "tinker";
async function pair(options: Parameters<typeof startPair>[0] = {}) {
  const started = await startPair({ mode, ...options });
  open.push(started);
  return started;
}

afterEach(async () => {
  for (const { server, client } of open) {
    await client.close();
    await server.close();
  }
  open = [];
});

describe.each(testServerModes)("TinkerClient endpoints against the %s test server", (serverMode) => {
  beforeEach(() => {
    mode = serverMode;
  });

  it("starts with the SDK's handshake: client/config before create_session", async () => {
    const { client, server } = await pair();
    expect(server.received.map((request) => request.endpoint)).toEqual(["/client/config", "/create_session"]);
    expect(server.received[0]?.body).toEqual({ sdk_version: "0.24.1" });
    expect(client.clientConfig).toMatchObject({ pjwt_auth_enabled: false, fwdbwd_max_chunk_len: 1024 });
  });

  it("answers healthz and the served base models", async () => {
    const { client } = await pair();
    expect(await client.healthz()).toEqual({ status: "ok" });
    expect(await client.getServerCapabilities()).toEqual([tinyModel]);
  });

  it("sends a heartbeat every period (10 s by default) and stops on close", async () => {
    const { client, server } = await pair({ client: { clock: systemClock, heartbeatIntervalMs: 25 } });
    const session = server.state.sessions.get(client.sessionId);
    await vi.waitFor(() => expect(session?.heartbeats).toBeGreaterThanOrEqual(3), {
      timeout: 5000,
      interval: 20,
    });
    await client.close();
    const afterClose = session?.heartbeats;
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(session?.heartbeats).toBe(afterClose);
  });

  it("creates a model, reports it, and learns a sequence with cross_entropy", async () => {
    const { client } = await pair();
    const model = await client.createModel(tinyModel, { rank: 8, seed: 5 });
    const info = await client.getInfo(model.modelId);
    expect(info.model_data.model_name).toBe(tinyModel);
    expect(serverMode === "skyrl" ? info.status : info.lora_rank).toBe(
      serverMode === "skyrl" ? "created" : 8,
    );
    const datum = crossEntropyDatum([1, 2, 3, 4, 5]);
    const first = await client.forwardBackward(model, [datum], "cross_entropy");
    await client.optimStep(model, adam);
    for (let step = 0; step < 5; step++) {
      await client.forwardBackward(model, [datum], "cross_entropy");
      await client.optimStep(model, adam);
    }
    const last = await client.forwardBackward(model, [datum], "cross_entropy");
    expect(first.loss_fn_outputs[0]?.logprobs?.data).toHaveLength(4);
    expect(last.metrics["loss:sum"]).toBeLessThan((first.metrics["loss:sum"] ?? 0) / 2);
    expect(model.nextSeqId).toBe(14);
  });

  it("saves sampler weights and samples the learned sequence from them, not from the base", async () => {
    const { client } = await pair();
    const model = await client.createModel(tinyModel, { rank: 8 });
    const datum = crossEntropyDatum([1, 2, 3, 4, 5, 6]);
    for (let step = 0; step < 20; step++) {
      await client.forwardBackward(model, [datum], "cross_entropy");
      await client.optimStep(model, adam);
    }
    const path = await client.saveWeightsForSampler(model, "step_20");
    expect(path).toBe(`tinker://${model.modelId}/sampler_weights/step_20`);
    const trained = await client.createSamplingSession({ modelPath: path });
    const base = await client.createSamplingSession({ baseModel: tinyModel });
    const params = { max_tokens: 4, temperature: 0, stop: [6], seed: 1 };
    const fromTrained = await client.sample(trained, tokensInput([1, 2]), 1, params);
    const fromBase = await client.sample(base, tokensInput([1, 2]), 1, params);
    expect(fromTrained.sequences[0]).toMatchObject({ tokens: [3, 4, 5, 6], stop_reason: "stop" });
    expect(fromTrained.sequences[0]?.logprobs).toHaveLength(4);
    expect(fromBase.sequences[0]?.tokens).not.toEqual([3, 4, 5, 6]);
    expect(trained.nextSeqId).toBe(1);
  });

  it("saves training weights and loads them into a fresh model, only as its first request", async () => {
    const { client } = await pair();
    const model = await client.createModel(tinyModel, { rank: 8 });
    const datum = crossEntropyDatum([2, 3, 4]);
    await client.forwardBackward(model, [datum], "cross_entropy");
    await client.optimStep(model, adam);
    const path = await client.saveWeights(model, "ckpt_1");
    expect(path).toBe(`tinker://${model.modelId}/weights/ckpt_1`);
    const reference = await client.forwardBackward(model, [datum], "cross_entropy");
    const fresh = await client.createModel(tinyModel, { rank: 8 });
    await client.loadWeights(fresh, path);
    const loaded = await client.forwardBackward(fresh, [datum], "cross_entropy");
    expect(loaded.loss_fn_outputs[0]?.logprobs?.data).toEqual(reference.loss_fn_outputs[0]?.logprobs?.data);
    await expect(client.loadWeights(fresh, path)).rejects.toThrow(/LoadWeights is not permitted/);
  });

  it("reports a failed future with its category", async () => {
    const { client } = await pair();
    const model = await client.createModel(tinyModel, { rank: 8 });
    const bad = crossEntropyDatum([1, 2, 99]);
    const failure = client.forwardBackward(model, [bad], "cross_entropy");
    await expect(failure).rejects.toBeInstanceOf(TinkerRequestFailedError);
    await expect(failure).rejects.toThrow(/outside the vocabulary/);
  });

  it("sends X-API-Key on every call", async () => {
    const { client, server } = await pair({ client: { apiKey: "tml-test-key" } });
    await client.createModel(tinyModel, { rank: 4 });
    expect(server.received.length).toBeGreaterThan(1);
    expect(server.received.every((request) => request.apiKey === "tml-test-key")).toBe(true);
  });
});

describe("seq_id ordering", () => {
  beforeEach(() => {
    mode = "tinker";
  });

  it("tinker: runs a model's requests in seq_id order even when they arrive out of order", async () => {
    const { client, server } = await pair();
    const model = await client.createModel(tinyModel, { rank: 4 });
    const datum = crossEntropyDatum([1, 2, 3]);
    const optimBody = { model_id: model.modelId, seq_id: 2, adam_params: adam };
    const forwardBody = {
      model_id: model.modelId,
      seq_id: 1,
      forward_backward_input: { data: [datum], loss_fn: "cross_entropy" },
    };
    const optim = await client.transport.send("POST", "/optim_step", optimBody);
    expect(optim.status).toBe(200);
    expect(server.state.applied.optim_step).toBeUndefined();
    await client.transport.send("POST", "/forward_backward", forwardBody);
    expect(server.state.applied).toMatchObject({ forward_backward: 1, optim_step: 1 });
    const result = await client.transport.send("POST", "/retrieve_future", {
      request_id: (optim.body as { request_id: string }).request_id,
    });
    expect((result.body as { metrics: { grad_norm: number } }).metrics.grad_norm).toBeGreaterThan(0);
  });

  it("skyrl: runs requests in arrival order, whatever their seq_id", async () => {
    const { client, server } = await pair({ mode: "skyrl" });
    const model = await client.createModel(tinyModel, { rank: 4 });
    const optimBody = { model_id: model.modelId, seq_id: 2, adam_params: adam };
    await client.transport.send("POST", "/optim_step", optimBody);
    expect(server.state.applied).toMatchObject({ optim_step: 1 });
    expect(server.state.applied.forward_backward).toBeUndefined();
  });

  it.each(testServerModes)("%s: answers 409 when a seq_id is reused with other data", async (serverMode) => {
    mode = serverMode;
    const { client } = await pair();
    const model = await client.createModel(tinyModel, { rank: 4 });
    await client.forwardBackward(model, [crossEntropyDatum([1, 2, 3])], "cross_entropy");
    model.nextSeqId = 1;
    const reuse = client.forwardBackward(model, [crossEntropyDatum([3, 2, 1])], "cross_entropy");
    await expect(reuse).rejects.toBeInstanceOf(TinkerConflictError);
  });
});
