import { describe, expect, it } from "vitest";
import { fetchLoopShares } from "./rollout-worker.js";

describe("fetchLoopShares", () => {
  it("shares a worker's concurrency among fetch loops of at most 32 episodes, the total kept", () => {
    expect(fetchLoopShares(1)).toEqual([1]);
    expect(fetchLoopShares(32)).toEqual([32]);
    expect(fetchLoopShares(33)).toEqual([17, 16]);
    expect(fetchLoopShares(256)).toEqual(Array(8).fill(32));
    for (const total of [1, 7, 64, 100, 255])
      expect(fetchLoopShares(total).reduce((sum, share) => sum + share, 0)).toBe(total);
  });
});
