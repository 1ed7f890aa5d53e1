import { type Clock, systemClock } from "../client/clock.js";
import { TinkerClient, type TinkerClientOptions } from "../client/tinker-client.js";
import { FaultPlan } from "../server/fault-plan.js";
import { TinkerTestServer } from "../server/test-server.js";

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

/** A started test server and a client with a session on it. */
export async function startPair(
  options: {
    vocabSize?: number;
    client?: Partial<TinkerClientOptions>;
    retrieveWaitMs?: number;
    defaultHeartbeat?: boolean;
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
    ...(options.retrieveWaitMs === undefined ? {} : { retrieveWaitMs: options.retrieveWaitMs }),
  });
  const url = await server.start();
  const clock = recordingClock();
  const heartbeat = options.defaultHeartbeat === true ? {} : { heartbeatIntervalMs: 60_000 };
  const client = new TinkerClient({ baseUrl: url, clock, ...heartbeat, ...options.client });
  await client.createSession();
  return { server, client, faults, clock };
}
