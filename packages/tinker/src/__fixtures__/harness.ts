import { type Clock, systemClock } from "../client/clock.js";
import { TinkerClient, type TinkerClientOptions } from "../client/tinker-client.js";
import { FaultPlan } from "../server/fault-plan.js";
import {
  type TestServerMode,
  TinkerTestServer,
  type TinkerTestServerOptions,
} from "../server/test-server.js";

/** Base model name the test server serves in tests. */
export const tinyModel = "hs/tiny-bag-bigram";

/** A clock that records every wait and skips short ones (long ones, like heartbeats, really wait). */
export function recordingClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => performance.now(),
    sleep: (milliseconds, signal) => {
      sleeps.push(milliseconds);
      return systemClock.sleep(milliseconds >= 10_000 ? milliseconds : 0, signal);
    },
  };
}

/**
 * A fake clock: `now` is virtual time, `sleep` advances it at once (after a macrotask, so other work
 * runs); `advance` moves it for time a server stood for (a `held` fault).
 */
export function fakeClock(): Clock & { sleeps: number[]; advance(milliseconds: number): void } {
  const sleeps: number[] = [];
  let now = 0;
  return {
    sleeps,
    now: () => now,
    advance: (milliseconds) => {
      now += milliseconds;
    },
    sleep: async (milliseconds, signal) => {
      sleeps.push(milliseconds);
      await systemClock.sleep(0, signal);
      now += milliseconds;
    },
  };
}

/** A started test server and a client with a session on it. */
export async function startPair(
  options: {
    vocabSize?: number;
    client?: Partial<TinkerClientOptions>;
    retrieveWaitMs?: number;
    defaultHeartbeat?: boolean;
    mode?: TestServerMode;
    server?: Partial<TinkerTestServerOptions>;
    clock?: Clock & { sleeps: number[] };
  } = {},
): Promise<{
  server: TinkerTestServer;
  client: TinkerClient;
  faults: FaultPlan;
  clock: Clock & { sleeps: number[] };
}> {
  const faults = new FaultPlan();
  const server = new TinkerTestServer({
    baseModels: { [tinyModel]: { vocabSize: options.vocabSize ?? 8, seed: 3 } },
    faults,
    ...(options.mode === undefined ? {} : { mode: options.mode }),
    ...(options.retrieveWaitMs === undefined ? {} : { retrieveWaitMs: options.retrieveWaitMs }),
    ...options.server,
  });
  const url = await server.start();
  const clock = options.clock ?? recordingClock();
  const heartbeat = options.defaultHeartbeat === true ? {} : { heartbeatIntervalMs: 60_000 };
  const client = new TinkerClient({ baseUrl: url, clock, ...heartbeat, ...options.client });
  await client.createSession();
  return { server, client, faults, clock };
}
