import { describe, expect, it } from "vitest";
import { recordingClock } from "../__fixtures__/harness.js";
import { tokensInput } from "../protocol/datum.js";
import { TinkerRequestFailedError } from "./errors.js";
import { TinkerClient } from "./tinker-client.js";

/** A fetch that answers each endpoint from a queue of JSON bodies, as Tinker's service shapes them. */
function scriptedFetch(script: Record<string, unknown[]>) {
  const sent: { endpoint: string; body: unknown; headers: Record<string, string> }[] = [];
  const fetchFunction = (async (url: string | URL, init?: RequestInit) => {
    const endpoint = String(url).replace(/^.*\/api\/v1/, "");
    sent.push({
      endpoint,
      body: init?.body === undefined ? undefined : JSON.parse(String(init.body)),
      headers: init?.headers as Record<string, string>,
    });
    const next = script[endpoint]?.shift();
    if (next === undefined) return new Response(JSON.stringify({ detail: "unscripted" }), { status: 404 });
    return new Response(JSON.stringify(next), {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  }) as typeof fetch;
  return { fetchFunction, sent };
}

describe("TinkerClient on Tinker-shaped replies (injected fetch)", () => {
  it("takes the model id from the create_model future, pausing while the queue is paused", async () => {
    const { fetchFunction, sent } = scriptedFetch({
      "/client/config": [{ pjwt_auth_enabled: false }],
      "/create_session": [{ type: "create_session", session_id: "s-1" }],
      "/create_model": [{ request_id: "r-1" }],
      "/retrieve_future": [
        { type: "try_again", request_id: "r-1", queue_state: "paused_capacity" },
        { model_id: "m-1", type: "create_model" },
      ],
    });
    const clock = recordingClock();
    const client = new TinkerClient({
      baseUrl: "https://tinker.example",
      apiKey: "k",
      fetch: fetchFunction,
      clock,
      heartbeatIntervalMs: 60_000,
    });
    await client.createSession();
    const model = await client.createModel("Qwen/Qwen3-8B", { rank: 32 });
    await client.close();
    expect(model).toEqual({ modelId: "m-1", baseModel: "Qwen/Qwen3-8B", nextSeqId: 1 });
    expect(clock.sleeps).toContain(1000);
    const create = sent.find((request) => request.endpoint === "/create_model");
    expect(create?.body).toMatchObject({
      session_id: "s-1",
      model_seq_id: 0,
      base_model: "Qwen/Qwen3-8B",
      lora_config: { rank: 32 },
    });
    expect(create?.headers["X-API-Key"]).toBe("k");
    expect(create?.headers["X-Idempotency-Key"]).toMatch(/^hs-tinker-/);
  });

  it("raises a failed future with Tinker's category", async () => {
    const { fetchFunction } = scriptedFetch({
      "/client/config": [{}],
      "/create_session": [{ session_id: "s-1" }],
      "/create_sampling_session": [{ sampling_session_id: "ss-1" }],
      "/asample": [{ request_id: "r-2" }],
      "/retrieve_future": [{ error: "prompt too long", category: "user" }],
    });
    const client = new TinkerClient({
      baseUrl: "https://tinker.example",
      fetch: fetchFunction,
      clock: recordingClock(),
      heartbeatIntervalMs: 60_000,
    });
    await client.createSession();
    const session = await client.createSamplingSession({ baseModel: "Qwen/Qwen3-8B" });
    const sampling = client.sample(session, tokensInput([1, 2]), 1, { max_tokens: 4 });
    await expect(sampling).rejects.toBeInstanceOf(TinkerRequestFailedError);
    await expect(sampling).rejects.toMatchObject({ category: "user", requestId: "r-2", isRetryable: false });
    await client.close();
  });

  it("names the field when a reply does not match its schema", async () => {
    const { fetchFunction } = scriptedFetch({
      "/client/config": [{}],
      "/create_session": [{ session: "s-1" }],
    });
    const client = new TinkerClient({
      baseUrl: "https://tinker.example",
      fetch: fetchFunction,
      clock: recordingClock(),
    });
    await expect(client.createSession()).rejects.toThrow(
      /reply of \/create_session does not match its schema at session_id/,
    );
  });

  async function sampleFrom(result: unknown, maxTokens = 16) {
    const { fetchFunction } = scriptedFetch({
      "/client/config": [{}],
      "/create_session": [{ session_id: "s-1" }],
      "/create_sampling_session": [{ sampling_session_id: "ss-1" }],
      "/asample": [{ request_id: "r-3" }],
      "/retrieve_future": [result],
    });
    const client = new TinkerClient({
      baseUrl: "https://tinker.example",
      fetch: fetchFunction,
      clock: recordingClock(),
      heartbeatIntervalMs: 60_000,
    });
    await client.createSession();
    const session = await client.createSamplingSession({ baseModel: "Qwen/Qwen3-8B" });
    try {
      return await client.sample(session, tokensInput([1, 2]), 1, { max_tokens: maxTokens });
    } finally {
      await client.close();
    }
  }

  it("reads an unknown error category as unknown, as the SDK", async () => {
    const failing = sampleFrom({ error: "quota", category: "billing" });
    await expect(failing).rejects.toMatchObject({ category: "unknown", isRetryable: false });
  });

  it.each([[[-5]], [[1.5]]])("refuses token ids %j that no tokenizer has", async (tokens) => {
    const failing = sampleFrom({ sequences: [{ stop_reason: "stop", tokens, logprobs: null }] });
    await expect(failing).rejects.toThrow(
      /reply of \/retrieve_future does not match its schema at sequences\.0\.tokens/,
    );
  });

  it("refuses a sequence longer than max_tokens", async () => {
    const tokens = Array.from({ length: 17 }, (_, index) => index);
    const failing = sampleFrom({ sequences: [{ stop_reason: "length", tokens, logprobs: null }] });
    await expect(failing).rejects.toThrow(/has 17 tokens, max_tokens was 16/);
  });

  it("stops reading a 2M-token reply to a 16-token request at the size asked for", async () => {
    const tokens = Array.from({ length: 2_000_000 }, () => 7);
    const started = performance.now();
    const failing = sampleFrom({ sequences: [{ stop_reason: "length", tokens, logprobs: null }] });
    await expect(failing).rejects.toThrow(/the reply has more than 66560 bytes/);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
