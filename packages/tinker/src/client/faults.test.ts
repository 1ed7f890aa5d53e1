import { afterEach, describe, expect, it } from "vitest";
import { startPair, tinyModel } from "../__fixtures__/harness.js";
import { type Datum, floatTensor, intTensor, tokensInput } from "../protocol/datum.js";
import type { Fault } from "../server/fault-plan.js";
import type { TinkerTestServer } from "../server/test-server.js";
import { TinkerApiError } from "./errors.js";
import type { TinkerClient } from "./tinker-client.js";

const datum: Datum = {
  model_input: tokensInput([1, 2, 3]),
  loss_fn_inputs: { target_tokens: intTensor([2, 3, 4]), weights: floatTensor([1, 1, 1]) },
};
const adam = { learning_rate: 0.05, beta1: 0.9, beta2: 0.95, eps: 1e-8 };

let open: { server: TinkerTestServer; client: TinkerClient }[] = [];
async function pair(options: Parameters<typeof startPair>[0] = {}) {
  const started = await startPair(options);
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

/** Runs one forward_backward with `fault` on `endpoint`; returns what the server saw. */
async function forwardBackwardUnder(endpoint: string, fault: Fault, times = 1) {
  const started = await pair({ retrieveWaitMs: 100 });
  const model = await started.client.createModel(tinyModel, { rank: 4 });
  started.faults.add(endpoint, fault, times);
  const result = await started.client.forwardBackward(model, [datum], "cross_entropy");
  const submissions = started.server.received.filter((request) => request.endpoint === "/forward_backward");
  return { ...started, model, result, submissions };
}

describe("futures protocol under faults", () => {
  it.each(["try_again", "408"] as const)("polls again after %s from retrieve_future", async (kind) => {
    const { result, server, faults, submissions } = await forwardBackwardUnder(
      "/retrieve_future",
      { kind },
      3,
    );
    expect(faults.injected).toEqual(Array(3).fill(`/retrieve_future ${kind}`));
    expect(result.loss_fn_outputs).toHaveLength(1);
    expect(submissions).toHaveLength(1);
    expect(server.state.applied.forward_backward).toBe(1);
  });

  it("waits between try_again polls but not after 408", async () => {
    const tryAgain = await forwardBackwardUnder("/retrieve_future", { kind: "try_again" }, 2);
    expect(tryAgain.clock.sleeps.filter((milliseconds) => milliseconds === 50)).toHaveLength(2);
    const timeout = await forwardBackwardUnder("/retrieve_future", { kind: "408" }, 2);
    expect(timeout.clock.sleeps.filter((milliseconds) => milliseconds < 10_000)).toHaveLength(0);
  });

  it("re-sends the request after 410 with the same seq_id and idempotency key, applied once", async () => {
    const { server, submissions } = await forwardBackwardUnder("/retrieve_future", { kind: "410" });
    expect(submissions).toHaveLength(2);
    const [first, second] = submissions;
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
    const seqIds = submissions.map((request) => (request.body as { seq_id?: number } | undefined)?.seq_id);
    expect(seqIds).toEqual([1, 1]);
    expect(server.state.applied.forward_backward).toBe(1);
  });

  it.each(["429", "500", "503"] as const)("backs off after %s on the submission", async (kind) => {
    const { server, submissions, clock } = await forwardBackwardUnder("/forward_backward", { kind }, 2);
    expect(submissions).toHaveLength(3);
    expect(new Set(submissions.map((request) => request.idempotencyKey)).size).toBe(1);
    expect(server.state.applied.forward_backward).toBe(1);
    const backoffs = clock.sleeps.filter((milliseconds) => milliseconds < 10_000);
    expect(backoffs).toEqual(kind === "429" ? [0, 0] : [200, 400]);
  });

  it("waits out a slow future (SkyRL's 408 after its wait) and gets the result", async () => {
    const { result, server } = await forwardBackwardUnder("/forward_backward", {
      kind: "slow",
      delayMs: 600,
    });
    const polls = server.received.filter((request) => request.endpoint === "/retrieve_future");
    expect(polls.some((request) => request.status === 408)).toBe(true);
    expect(polls[polls.length - 1]?.status).toBe(200);
    expect(result.loss_fn_outputs).toHaveLength(1);
  });

  it.each(["drop-before", "drop-after"] as const)(
    "retries a %s dropped connection with the same key and seq_id and applies it once",
    async (kind) => {
      const { server, submissions } = await forwardBackwardUnder("/forward_backward", { kind });
      expect(submissions).toHaveLength(2);
      expect(submissions[1]?.idempotencyKey).toBe(submissions[0]?.idempotencyKey);
      expect(submissions[1]?.body).toEqual(submissions[0]?.body);
      expect(server.state.applied.forward_backward).toBe(1);
    },
  );

  it("never applies an optim_step twice when its answer is lost", async () => {
    const { client, server, faults } = await pair();
    const model = await client.createModel(tinyModel, { rank: 4 });
    await client.forwardBackward(model, [datum], "cross_entropy");
    faults.add("/optim_step", { kind: "drop-after" }).add("/optim_step", { kind: "503" });
    await client.optimStep(model, adam);
    const sent = server.received.filter((request) => request.endpoint === "/optim_step");
    expect(sent).toHaveLength(3);
    expect(server.state.applied.optim_step).toBe(1);
    await client.forwardBackward(model, [datum], "cross_entropy");
    expect(model.nextSeqId).toBe(4);
  });

  it("retries sampling after a dropped connection", async () => {
    const { client, faults } = await pair();
    const session = await client.createSamplingSession({ baseModel: tinyModel });
    faults.add("/asample", { kind: "drop-before" });
    const sample = await client.sample(session, tokensInput([1]), 2, { max_tokens: 3, seed: 4 });
    expect(sample.sequences).toHaveLength(2);
  });

  it("gives up with a retryable error when the server keeps failing", async () => {
    const { client, faults } = await pair({ client: { maxRetries: 2 } });
    const model = await client.createModel(tinyModel, { rank: 4 });
    faults.add("/forward_backward", { kind: "500" }, 3);
    const failing = client.forwardBackward(model, [datum], "cross_entropy");
    await expect(failing).rejects.toBeInstanceOf(TinkerApiError);
    await expect(failing).rejects.toMatchObject({ status: 500, isRetryable: true });
  });
});
