import { afterEach, describe, expect, it } from "vitest";
import type { z } from "zod";
import { startPair, tinyModel } from "../__fixtures__/harness.js";
import { sdkWireFixtures, type WireFixture } from "../__fixtures__/wire/sdk-wire-fixtures.js";
import type { TinkerClient } from "../client/tinker-client.js";
import { type TinkerTestServer, testServerModes } from "../server/test-server.js";
import { floatTensor, intTensor, tokensInput } from "./datum.js";
import * as replies from "./replies.js";
import * as requests from "./requests.js";

/** Per endpoint: the request schema the test server parses, the reply and result schemas the client parses. */
const schemas: Record<string, { request?: z.ZodType; reply?: z.ZodType; result?: z.ZodType }> = {
  "/client/config": { request: requests.clientConfigRequestSchema, reply: replies.clientConfigReplySchema },
  "/auth/token": { request: requests.authTokenRequestSchema, reply: replies.authTokenReplySchema },
  "/healthz": { reply: replies.healthReplySchema },
  "/get_server_capabilities": { reply: replies.serverCapabilitiesReplySchema },
  "/create_session": {
    request: requests.createSessionRequestSchema,
    reply: replies.createSessionReplySchema,
  },
  "/session_heartbeat": {
    request: requests.sessionHeartbeatRequestSchema,
    reply: replies.sessionHeartbeatReplySchema,
  },
  "/create_model": {
    request: requests.createModelRequestSchema,
    reply: replies.createModelReplySchema,
    result: replies.createModelResultSchema,
  },
  "/get_info": { request: requests.getInfoRequestSchema, reply: replies.modelInfoReplySchema },
  "/forward_backward": {
    request: requests.forwardBackwardRequestSchema,
    reply: replies.futureReplySchema,
    result: replies.forwardBackwardResultSchema,
  },
  "/optim_step": {
    request: requests.optimStepRequestSchema,
    reply: replies.futureReplySchema,
    result: replies.optimStepResultSchema,
  },
  "/save_weights": {
    request: requests.saveWeightsRequestSchema,
    reply: replies.futureReplySchema,
    result: replies.saveWeightsResultSchema,
  },
  "/save_weights_for_sampler": {
    request: requests.saveWeightsForSamplerRequestSchema,
    reply: replies.futureReplySchema,
    result: replies.saveWeightsForSamplerResultSchema,
  },
  "/load_weights": {
    request: requests.loadWeightsRequestSchema,
    reply: replies.futureReplySchema,
    result: replies.loadWeightsResultSchema,
  },
  "/create_sampling_session": {
    request: requests.createSamplingSessionRequestSchema,
    reply: replies.createSamplingSessionReplySchema,
  },
  "/asample": {
    request: requests.sampleRequestSchema,
    reply: replies.futureReplySchema,
    result: replies.sampleResultSchema,
  },
  "/retrieve_future": {
    request: requests.retrieveFutureRequestSchema,
    reply: replies.tryAgainReplySchema,
    result: replies.requestFailedReplySchema,
  },
  "/weights_info": { request: requests.weightsInfoRequestSchema, reply: replies.weightsInfoReplySchema },
  "/samplers/{id}": { reply: replies.samplerReplySchema },
  "/unload_model": { request: requests.unloadModelRequestSchema, reply: replies.unloadModelReplySchema },
  "/telemetry": { request: requests.telemetryRequestSchema, reply: replies.telemetryReplySchema },
};

function parts(fixture: WireFixture) {
  return (["request", "reply", "result"] as const).flatMap((part) =>
    fixture[part] === undefined
      ? []
      : [{ part, body: fixture[part], schema: schemas[fixture.endpoint]?.[part] }],
  );
}

describe("SDK wire fixtures, SDK -> us: our schemas accept every body the SDK writes or reads", () => {
  it("has a schema for every part of every fixture", () => {
    const missing = sdkWireFixtures.flatMap((fixture) =>
      parts(fixture).flatMap(({ part, schema }) =>
        schema === undefined ? [`${fixture.endpoint} ${part}`] : [],
      ),
    );
    expect(missing).toEqual([]);
  });

  it.each(
    sdkWireFixtures.flatMap((fixture) =>
      parts(fixture).map((entry) => ({ endpoint: fixture.endpoint, ...entry })),
    ),
  )("$endpoint $part", ({ body, schema }) => {
    const parsed = schema?.safeParse(body);
    expect(parsed?.success, JSON.stringify(parsed?.error?.issues)).toBe(true);
  });

  it("refuses bodies that break the SDK's types (so the check could fail)", () => {
    expect(replies.modelInfoReplySchema.safeParse({ model_data: {} }).success).toBe(false);
    expect(
      requests.optimStepRequestSchema.safeParse({ model_id: "m", adam_params: { learning_rate: 1 } }).success,
    ).toBe(false);
    expect(
      replies.sampleResultSchema.safeParse({ sequences: [{ stop_reason: "eos", tokens: [1] }] }).success,
    ).toBe(false);
  });
});

/** Every key path of `value` (objects only; arrays contribute their first element's paths). */
function keyPaths(value: unknown, prefix = ""): string[] {
  if (Array.isArray(value)) return value.length === 0 ? [] : keyPaths(value[0], `${prefix}[]`);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    `${prefix}${key}`,
    ...keyPaths(inner, `${prefix}${key}.`),
  ]);
}

const fixtureKeys = new Map(
  sdkWireFixtures.map((fixture) => [fixture.endpoint, new Set(keyPaths(fixture.request))]),
);
/** Fields the client may send that a fixture leaves out (null or default-valued in the SDK). */
const optionalInSdk = new Set(["lora_config.seed", "path"]);

let open: { server: TinkerTestServer; client: TinkerClient }[] = [];
afterEach(async () => {
  for (const { server, client } of open) {
    await client.close();
    await server.close();
  }
  open = [];
});

describe.each(testServerModes)(
  "SDK wire fixtures, us -> SDK: the client sends only fields the SDK's types have (%s)",
  (mode) => {
    it("for every request of a full flow", async () => {
      const started = await startPair({ mode });
      open.push(started);
      const { client, server } = started;
      const model = await client.createModel(tinyModel, { rank: 4, seed: 1 });
      await client.getInfo(model.modelId);
      const datum = {
        model_input: tokensInput([1, 2]),
        loss_fn_inputs: { target_tokens: intTensor([2, 3]), weights: floatTensor([1, 1]) },
      };
      await client.forwardBackward(model, [datum], "cross_entropy");
      await client.optimStep(model, { learning_rate: 0.1, beta1: 0.9, beta2: 0.95, eps: 1e-8 });
      const path = await client.saveWeights(model, "w");
      const samplerPath = await client.saveWeightsForSampler(model, "s");
      const ephemeral = await client.createEphemeralSampler(model);
      await client.weightsInfo(path);
      const session = await client.createSamplingSession({ modelPath: samplerPath });
      await client.sample(session, tokensInput([1]), 1, { max_tokens: 2, seed: 1, stop: [7] });
      await client.getSampler(ephemeral.samplingSessionId);
      const fresh = await client.createModel(tinyModel, { rank: 4 });
      await client.loadWeights(fresh, path);
      await client.unloadModel(fresh);
      const extra = server.received.flatMap((request) => {
        const allowed = fixtureKeys.get(request.endpoint);
        if (allowed === undefined)
          return request.body === undefined ? [] : [`${request.endpoint}: no fixture`];
        return keyPaths(request.body)
          .filter(
            (key) => !allowed.has(key) && !optionalInSdk.has(key) && !key.startsWith("sampling_params."),
          )
          .map((key) => `${request.endpoint} ${key}`);
      });
      expect([...new Set(extra)]).toEqual([]);
      expect(new Set(server.received.map((request) => request.endpoint)).size).toBeGreaterThanOrEqual(14);
    });
  },
);
