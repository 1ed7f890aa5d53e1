import { describe, expect, it } from "vitest";
import { rolloutJobId } from "./job-id.js";
import type { RolloutKey } from "./rollout-job.js";

const key: RolloutKey = {
  run: "run-a",
  phase: "train",
  policyVersion: "seed0-u3",
  taskId: "dbbench/dev/7",
  harnessHash: "sha256:0123",
  seed: 42,
  mode: "sample",
};

describe("rolloutJobId", () => {
  it("gives the same rollout the same id, so BullMQ adds it once", () => {
    expect(rolloutJobId({ ...key })).toBe(rolloutJobId(key));
  });

  it("tells apart every field of the key", () => {
    const variants: RolloutKey[] = [
      { ...key, run: "run-b" },
      { ...key, phase: "evolve" },
      { ...key, policyVersion: "seed0-u4" },
      { ...key, taskId: "dbbench/dev/8" },
      { ...key, harnessHash: "sha256:4567" },
      { ...key, seed: 43 },
      { ...key, mode: "greedy" },
    ];
    const ids = new Set([key, ...variants].map(rolloutJobId));
    expect(ids.size).toBe(variants.length + 1);
  });

  it("has no colon and is no integer (BullMQ refuses both as custom ids)", () => {
    expect(rolloutJobId(key)).toMatch(/^r[0-9a-f]{40}$/);
  });
});
