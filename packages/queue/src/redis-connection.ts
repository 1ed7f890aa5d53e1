import { InvalidInputError } from "@hs/spec";
import { Redis } from "ioredis";

/**
 * A Redis connection for BullMQ from a `redis://host:port[/db]` URL. BullMQ needs
 * `maxRetriesPerRequest: null` on connections that block (taskforcesh/bullmq
 * `docs/gitbook/guide/going-to-production.md`); every command then waits through a Redis restart instead
 * of failing, and ioredis reconnects with a capped backoff.
 */
export function connectRedis(url: string): Redis {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new InvalidInputError(
      `not a Redis URL: ${url} (expected redis://HOST:PORT)`,
      { field: "redis" },
      {
        cause: error,
      },
    );
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:")
    throw new InvalidInputError(`not a Redis URL: ${url} (expected redis://HOST:PORT)`, { field: "redis" });
  return new Redis(url, {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 6), 2000),
    // BullMQ's scripts read RESP2 replies; ioredis 6 speaks RESP3 unless told otherwise
    protocol: 2,
    lazyConnect: false,
  });
}
