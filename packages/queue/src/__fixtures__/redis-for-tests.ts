import { randomUUID } from "node:crypto";
import { describe } from "vitest";

/** The private Redis of the test command (`scripts/redis-for-tests.sh` exports it). */
export const redisUrl = process.env.HS_REDIS_URL;

const inCi = process.env.CI === "true" || process.env.CI === "1";
if (redisUrl === undefined && inCi)
  throw new Error(
    "HS_REDIS_URL is not set: in CI the queue tests must run (scripts/test-all.sh starts Redis)",
  );
if (redisUrl === undefined)
  console.warn(
    "@hs/queue: HS_REDIS_URL is not set, so the queue tests are skipped (start one: bash scripts/redis.sh start, then HS_REDIS_URL=redis://127.0.0.1:6380)",
  );

/** `describe` when a Redis is there, `describe.skip` otherwise (never in CI: see above). */
export const describeWithRedis = describe.skipIf(redisUrl === undefined) as typeof describe;

/** The Redis URL (only called inside `describeWithRedis`). */
export function requireRedis(): string {
  if (redisUrl === undefined) throw new Error("HS_REDIS_URL is not set");
  return redisUrl;
}

/** A queue name of its own for one test, so tests never take each other's jobs. */
export function privateQueueName(label: string): string {
  return `hs-test-${label}-${randomUUID().slice(0, 8)}`;
}
