import { InvalidInputError } from "@hs/spec";
import { afterEach, describe, expect, it } from "vitest";
import { startPair, tinyModel } from "../__fixtures__/harness.js";
import { type Datum, floatTensor, intTensor, tokensInput } from "../protocol/datum.js";
import { type TinkerTestServer, testServerModes } from "../server/test-server.js";
import { TinkerApiError } from "./errors.js";
import { TinkerClient } from "./tinker-client.js";

let open: { server: TinkerTestServer; client: TinkerClient }[] = [];
afterEach(async () => {
  for (const { server, client } of open) {
    await client.close();
    await server.close();
  }
  open = [];
});
async function pair(options: Parameters<typeof startPair>[0] = {}) {
  const started = await startPair(options);
  open.push(started);
  return started;
}

function datum(tokens: number[]): Datum {
  return {
    model_input: tokensInput(tokens.slice(0, -1)),
    loss_fn_inputs: {
      target_tokens: intTensor(tokens.slice(1)),
      weights: floatTensor(tokens.slice(1).map(() => 1)),
    },
  };
}

describe("handshake with a JWT exchange (tinker mode, pjwt_auth_enabled)", () => {
  it("exchanges the API key at /auth/token and sends the JWT on every later call", async () => {
    const { client, server } = await pair({
      mode: "tinker",
      client: { apiKey: "tml-key" },
      server: { clientConfig: { pjwt_auth_enabled: true }, apiKeys: ["tml-key"] },
    });
    await client.createModel(tinyModel, { rank: 4 });
    const [config, token, ...rest] = server.received;
    expect([config?.endpoint, token?.endpoint]).toEqual(["/client/config", "/auth/token"]);
    expect(token?.apiKey).toBe("tml-key");
    expect(rest.length).toBeGreaterThan(1);
    expect(rest.every((request) => request.apiKey !== "tml-key" && request.apiKey?.startsWith("e30."))).toBe(
      true,
    );
    expect(rest.every((request) => request.status === 200)).toBe(true);
  });

  it("refuses to start without an API key when the server asks for the exchange", async () => {
    const failing = startPair({ mode: "tinker", server: { clientConfig: { pjwt_auth_enabled: true } } });
    await expect(failing).rejects.toThrow(/asks for a JWT exchange and no API key is set/);
  });
});

describe.each(testServerModes)("requests as the SDK sends them (%s test server)", (mode) => {
  it("splits a batch at the server's fwdbwd_max_chunk_len, one seq_id per chunk, and combines the results", async () => {
    const { client, server } = await pair({ mode, server: { clientConfig: { fwdbwd_max_chunk_len: 2 } } });
    const model = await client.createModel(tinyModel, { rank: 4 });
    const data = [datum([1, 2, 3]), datum([2, 3, 4]), datum([3, 4, 5]), datum([4, 5, 6]), datum([5, 6, 7])];
    const split = await client.forwardBackward(model, data, "cross_entropy");
    const sent = server.received.filter((request) => request.endpoint === "/forward_backward");
    // SkyRL's minimal /client/config answers no chunk size: the SDK default, 1,024
    const expectedChunks = mode === "tinker" ? [2, 2, 1] : [5];
    expect(
      sent.map(
        (request) =>
          (request.body as { forward_backward_input: { data: unknown[] } }).forward_backward_input.data
            .length,
      ),
    ).toEqual(expectedChunks);
    expect(sent.map((request) => (request.body as { seq_id: number }).seq_id)).toEqual(
      expectedChunks.map((_, index) => index + 1),
    );
    expect(split.loss_fn_outputs).toHaveLength(5);
    const fresh = await client.createModel(tinyModel, { rank: 4 });
    const whole = await client.forwardBackward(fresh, data.slice(0, 2), "cross_entropy");
    const firstChunkLoss = whole.metrics["loss:sum"] ?? Number.NaN;
    expect(split.loss_fn_outputs.slice(0, 2)).toEqual(whole.loss_fn_outputs);
    expect(split.metrics["loss:sum"]).toBeGreaterThan(firstChunkLoss);
  });

  it("sends optim_step with its type and all six Adam fields (the SDK's defaults filled in)", async () => {
    const { client, server } = await pair({ mode });
    const model = await client.createModel(tinyModel, { rank: 4 });
    await client.forwardBackward(model, [datum([1, 2, 3])], "cross_entropy");
    await client.optimStep(model, { learning_rate: 0.01, beta1: 0.9, beta2: 0.95, eps: 1e-8 });
    const optim = server.received.find((request) => request.endpoint === "/optim_step");
    expect(optim?.body).toEqual({
      model_id: model.modelId,
      seq_id: 2,
      adam_params: {
        learning_rate: 0.01,
        beta1: 0.9,
        beta2: 0.95,
        eps: 1e-8,
        weight_decay: 0,
        grad_clip_norm: 0,
      },
      type: "optim_step",
    });
  });

  it("accepts a single-string stop and the dro loss on the wire", async () => {
    const { client, server } = await pair({ mode });
    const session = await client.createSamplingSession({ baseModel: tinyModel });
    const sample = await client.sample(session, tokensInput([1]), 1, {
      max_tokens: 2,
      stop: "</s>",
      seed: 1,
    });
    expect(sample.sequences[0]?.tokens.length).toBeLessThanOrEqual(2);
    const asample = server.received.find((request) => request.endpoint === "/asample");
    expect(
      (asample?.body as { sampling_params?: { stop?: unknown } } | undefined)?.sampling_params?.stop,
    ).toBe("</s>");
    // dro passes both schemas; the tiny model does not compute it, and says so as a user error
    const model = await client.createModel(tinyModel, { rank: 4 });
    const dro = client.forwardBackward(model, [datum([1, 2, 3])], "dro");
    await expect(dro).rejects.toMatchObject({ category: "user" });
    await expect(dro).rejects.toThrow(/loss_fn dro is not served by the test server/);
  });

  it("serves the ephemeral sampler, weights_info, samplers/{id} and unload_model as the services do", async () => {
    const { client } = await pair({ mode });
    const model = await client.createModel(tinyModel, { rank: 4 });
    const sampler = await client.createEphemeralSampler(model);
    expect(sampler.source).toBe(`tinker://${model.modelId}/sampler_weights/ss0_seq1`);
    const sample = await client.sample(sampler, tokensInput([1]), 1, { max_tokens: 2, seed: 3 });
    expect(sample.sequences).toHaveLength(1);
    expect(await client.getSampler(sampler.samplingSessionId)).toEqual({
      sampler_id: sampler.samplingSessionId,
      base_model: tinyModel,
      model_path: sampler.source,
    });
    const path = await client.saveWeights(model, "info");
    expect(await client.weightsInfo(path)).toEqual({ base_model: tinyModel, is_lora: true, lora_rank: 4 });
    await client.unloadModel(model);
    await expect(client.getInfo(model.modelId)).rejects.toMatchObject({ status: 404 });
  });

  it("reads FastAPI's 422 detail list into the error", async () => {
    const { client } = await pair({ mode });
    const answer = await client.transport.send("POST", "/optim_step", { model_id: "m", adam_params: {} });
    expect(answer.status).toBe(422);
    expect(answer.text).toContain('"loc":["body","adam_params","learning_rate"]');
    expect(Number(answer.text.length)).toBeGreaterThan(0);
  });
});

describe("inputs refused before any request", () => {
  it.each([
    ["file:///etc/passwd", /uses file:; only http: and https:/],
    ["127.0.0.1:8000", /is not a URL/],
    ["http//nowhere", /is not a URL/],
  ])("refuses --tinker-url %s", (baseUrl, message) => {
    expect(() => new TinkerClient({ baseUrl })).toThrow(InvalidInputError);
    expect(() => new TinkerClient({ baseUrl })).toThrow(message);
  });

  it("refuses an empty forward_backward batch", async () => {
    const { client } = await pair();
    const model = await client.createModel(tinyModel, { rank: 4 });
    await expect(client.forwardBackward(model, [], "cross_entropy")).rejects.toBeInstanceOf(TinkerApiError);
  });
});
