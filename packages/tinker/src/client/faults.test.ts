import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { fakeClock, startPair, tinyModel } from "../__fixtures__/harness.js";
import { type Datum, floatTensor, intTensor, tokensInput } from "../protocol/datum.js";
import type { Fault } from "../server/fault-plan.js";
import { type TestServerMode, type TinkerTestServer, testServerModes } from "../server/test-server.js";
import type { WaitNotice } from "./call-policy.js";
import { systemClock } from "./clock.js";
import {
  TinkerApiError,
  TinkerConflictError,
  TinkerDeadlineError,
  TinkerRequestFailedError,
} from "./errors.js";
import { TinkerClient, type TinkerClientOptions } from "./tinker-client.js";

const datum: Datum = {
  model_input: tokensInput([1, 2, 3]),
  loss_fn_inputs: { target_tokens: intTensor([2, 3, 4]), weights: floatTensor([1, 1, 1]) },
};
const adam = { learning_rate: 0.05, beta1: 0.9, beta2: 0.95, eps: 1e-8 };

let open: { server: TinkerTestServer; client: TinkerClient }[] = [];
afterEach(async () => {
  for (const { server, client } of open) {
    await client.close();
    await server.close();
  }
  open = [];
});

/** A pair on a fake clock (no real waits) with jitter off, so pauses are exact. */
async function pair(mode: TestServerMode, client: Partial<TinkerClientOptions> = {}) {
  const clock = fakeClock();
  const started = await startPair({
    mode,
    clock,
    retrieveWaitMs: 100,
    client: { random: () => 0, ...client },
    server: { onHold: (milliseconds) => clock.advance(milliseconds) },
  });
  open.push(started);
  return { ...started, clock };
}

function sent(server: TinkerTestServer, endpoint: string) {
  return server.received.filter((request) => request.endpoint === endpoint);
}

/** Runs one forward_backward with `fault` on `endpoint`; returns what the server saw. */
async function forwardBackwardUnder(mode: TestServerMode, endpoint: string, fault: Fault, times = 1) {
  const started = await pair(mode);
  const model = await started.client.createModel(tinyModel, { rank: 4 });
  started.faults.add(endpoint, fault, times);
  const result = await started.client.forwardBackward(model, [datum], "cross_entropy");
  return { ...started, model, result, submissions: sent(started.server, "/forward_backward") };
}

describe.each(testServerModes)("fault suite against the %s test server", (mode) => {
  it.each(["try_again", "408", "500"] as const)(
    "polls again after %s from retrieve_future, applied once",
    async (kind) => {
      const { result, server, faults, submissions, clock } = await forwardBackwardUnder(
        mode,
        "/retrieve_future",
        { kind },
        3,
      );
      expect(faults.injected).toEqual(Array(3).fill(`/retrieve_future ${kind}`));
      expect(result.loss_fn_outputs).toHaveLength(1);
      expect(submissions).toHaveLength(1);
      expect(server.state.applied.forward_backward).toBe(1);
      // answered at once, so the pauses grow (a server answering 408 at once is not polled 40 times a second)
      expect(clock.sleeps).toEqual([50, 100, 200]);
    },
  );

  it("fails a training call after 410 (the SDK re-sends only sampling), applied once", async () => {
    const started = await pair(mode);
    const model = await started.client.createModel(tinyModel, { rank: 4 });
    started.faults.add("/retrieve_future", { kind: "410" });
    const failing = started.client.forwardBackward(model, [datum], "cross_entropy");
    await expect(failing).rejects.toMatchObject({ status: 410, isRetryable: true });
    expect(sent(started.server, "/forward_backward")).toHaveLength(1);
    expect(started.server.state.applied.forward_backward).toBe(1);
  });

  it("re-sends a sampling call after 410 with a new seq_id and a new idempotency key", async () => {
    const { client, server, faults } = await pair(mode);
    const session = await client.createSamplingSession({ baseModel: tinyModel });
    faults.add("/retrieve_future", { kind: "410" });
    const sample = await client.sample(session, tokensInput([1]), 2, { max_tokens: 3, seed: 4 });
    expect(sample.sequences).toHaveLength(2);
    const samples = sent(server, "/asample");
    expect(samples.map((request) => (request.body as { seq_id: number }).seq_id)).toEqual([0, 1]);
    expect(samples[1]?.idempotencyKey).not.toBe(samples[0]?.idempotencyKey);
    expect(session.nextSeqId).toBe(2);
  });

  it.each(["429", "500", "503"] as const)(
    "retries %s on the submission with the same key and the SDK's backoff",
    async (kind) => {
      const { server, submissions, clock } = await forwardBackwardUnder(
        mode,
        "/forward_backward",
        { kind },
        2,
      );
      expect(submissions).toHaveLength(3);
      expect(new Set(submissions.map((request) => request.idempotencyKey)).size).toBe(1);
      expect(server.state.applied.forward_backward).toBe(1);
      // 429 carries Retry-After: 0, which the SDK ignores (only 0 < s <= 60): the exponential backoff
      expect(clock.sleeps).toEqual([500, 1000]);
    },
  );

  it.each(["drop-before", "drop-after"] as const)(
    "retries a forward_backward whose connection dropped (%s) with the same key and seq_id, applied once",
    async (kind) => {
      const { server, submissions } = await forwardBackwardUnder(mode, "/forward_backward", { kind });
      expect(submissions).toHaveLength(2);
      expect(submissions[1]?.idempotencyKey).toBe(submissions[0]?.idempotencyKey);
      expect(submissions[1]?.body).toEqual(submissions[0]?.body);
      expect(server.state.applied.forward_backward).toBe(1);
    },
  );

  it("never applies an optim_step twice when its answer is lost", async () => {
    const { client, server, faults } = await pair(mode);
    const model = await client.createModel(tinyModel, { rank: 4 });
    await client.forwardBackward(model, [datum], "cross_entropy");
    faults.add("/optim_step", { kind: "drop-after" }).add("/optim_step", { kind: "503" });
    await client.optimStep(model, adam);
    expect(sent(server, "/optim_step")).toHaveLength(3);
    expect(server.state.applied.optim_step).toBe(1);
  });

  it("a save_weights applied before its connection dropped: Tinker answers the retry from its cache, SkyRL 409", async () => {
    const { client, server, faults } = await pair(mode);
    const model = await client.createModel(tinyModel, { rank: 4 });
    faults.add("/save_weights", { kind: "drop-after" });
    const saving = client.saveWeights(model, "kept");
    if (mode === "tinker") {
      await expect(saving).resolves.toBe(`tinker://${model.modelId}/weights/kept`);
    } else {
      await expect(saving).rejects.toBeInstanceOf(TinkerConflictError);
      await expect(saving).rejects.toThrow(/Checkpoint 'kept' already exists/);
    }
    expect(sent(server, "/save_weights")).toHaveLength(2);
    expect(server.state.applied.save_weights).toBe(1);
  });

  it("waits out a future pending for 20 minutes (four 300 s polls on a fake clock) within the deadline", async () => {
    const notices: WaitNotice[] = [];
    const { client, server, faults, clock } = await pair(mode, {
      onProgress: (notice) => notices.push(notice),
    });
    const model = await client.createModel(tinyModel, { rank: 4 });
    const polledBefore = sent(server, "/retrieve_future").length;
    faults.add("/retrieve_future", { kind: "held", holdMs: 300_000 }, 4);
    const started = clock.now();
    const result = await client.forwardBackward(model, [datum], "cross_entropy");
    expect(result.loss_fn_outputs).toHaveLength(1);
    expect(clock.now() - started).toBeGreaterThanOrEqual(20 * 60_000);
    expect(sent(server, "/retrieve_future").length - polledBefore).toBe(5);
    // held polls are polled again at once
    expect(clock.sleeps).toEqual([]);
    expect(notices.map((notice) => notice.elapsedMs)).toEqual([300_000, 600_000, 900_000, 1_200_000]);
    expect(notices[0]?.state).toMatch(mode === "skyrl" ? /HTTP 408/ : /try_again/);
  });

  it("stops a future still pending at the user's deadline with TinkerDeadlineError", async () => {
    const { client, server, faults } = await pair(mode, { deadlineMs: 15 * 60_000 });
    const model = await client.createModel(tinyModel, { rank: 4 });
    const polledBefore = sent(server, "/retrieve_future").length;
    faults.add("/retrieve_future", { kind: "held", holdMs: 300_000 }, 10);
    const failing = client.forwardBackward(model, [datum], "cross_entropy");
    await expect(failing).rejects.toBeInstanceOf(TinkerDeadlineError);
    await expect(failing).rejects.toThrow(/deadline of 900 s/);
    expect(sent(server, "/retrieve_future").length - polledBefore).toBe(3);
  });

  it("bounds a server that always says try_again by the deadline, polling at most every 2 s", async () => {
    const { client, server, faults, clock } = await pair(mode, { deadlineMs: 60_000 });
    const model = await client.createModel(tinyModel, { rank: 4 });
    faults.add("/retrieve_future", { kind: "try_again" }, 1000);
    await expect(client.forwardBackward(model, [datum], "cross_entropy")).rejects.toBeInstanceOf(
      TinkerDeadlineError,
    );
    expect(sent(server, "/retrieve_future").length).toBeLessThan(40);
    expect(Math.max(...clock.sleeps)).toBe(2000);
  });

  it("gives up on a bare 400 from retrieve_future after 3 retries", async () => {
    const { client, server } = await pair(mode);
    const model = await client.createModel(tinyModel, { rank: 4 });
    const polledBefore = sent(server, "/retrieve_future").length;
    const bad: Datum = {
      ...datum,
      loss_fn_inputs: { ...datum.loss_fn_inputs, target_tokens: intTensor([2, 3, 99]) },
    };
    const failing = client.forwardBackward(model, [bad], "cross_entropy");
    await expect(failing).rejects.toBeInstanceOf(TinkerRequestFailedError);
    await expect(failing).rejects.toThrow(/outside the vocabulary/);
    // SkyRL reports the failure as 400 (polled 3 more times); Tinker as 200 {error, category}
    expect(sent(server, "/retrieve_future").length - polledBefore).toBe(mode === "skyrl" ? 4 : 1);
  });

  it("gives up with a retryable error when the server keeps failing", async () => {
    const { client, faults } = await pair(mode, { maxRetries: 2, resubmitWindowMs: 0 });
    const model = await client.createModel(tinyModel, { rank: 4 });
    faults.add("/forward_backward", { kind: "500" }, 3);
    const failing = client.forwardBackward(model, [datum], "cross_entropy");
    await expect(failing).rejects.toBeInstanceOf(TinkerApiError);
    await expect(failing).rejects.toMatchObject({ status: 500, isRetryable: true });
  });

  it("sends a submission again as a new call (new key, same seq_id) when its retries run out", async () => {
    const { client, server, faults, clock } = await pair(mode, { maxRetries: 1 });
    const model = await client.createModel(tinyModel, { rank: 4 });
    faults.add("/forward_backward", { kind: "503" }, 2);
    await client.forwardBackward(model, [datum], "cross_entropy");
    const submissions = sent(server, "/forward_backward");
    expect(submissions).toHaveLength(3);
    expect(submissions[2]?.idempotencyKey).not.toBe(submissions[0]?.idempotencyKey);
    expect(submissions.map((request) => (request.body as { seq_id: number }).seq_id)).toEqual([1, 1, 1]);
    expect(clock.sleeps).toEqual([500, 1000]);
    expect(server.state.applied.forward_backward).toBe(1);
  });
});

describe("a server that never answers", () => {
  let silent: Server | undefined;
  afterEach(async () => {
    silent?.closeAllConnections();
    await new Promise((resolve) => silent?.close(resolve));
    silent = undefined;
  });

  it("is reported at least every progress period and stopped by the deadline", async () => {
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent?.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as AddressInfo).port;
    const notices: WaitNotice[] = [];
    const client = new TinkerClient({
      baseUrl: `http://127.0.0.1:${port}`,
      clock: systemClock,
      deadlineMs: 400,
      progressIntervalMs: 50,
      onProgress: (notice) => notices.push(notice),
    });
    const started = performance.now();
    await expect(client.handshake()).rejects.toBeInstanceOf(TinkerDeadlineError);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(notices.length).toBeGreaterThanOrEqual(3);
    expect(notices[0]?.waitedOn).toBe("/client/config");
  });
});
