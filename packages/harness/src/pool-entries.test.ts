import { poolSchema } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { harnessHash } from "./harness-hash.js";
import { createHarnessConfig } from "./parse-harness-config.js";
import { createPool, createSibling } from "./pool-entries.js";

describe("pool entries", () => {
  it("derive ids and hashes from the harnesses and make a valid pool", () => {
    const base = createHarnessConfig({ id: "base" });
    const longer = createHarnessConfig({ id: "longer", budget: { maxSteps: 40, maxOutputChars: null } });
    const validation = { failuresTried: 3, rescued: 1, successesTried: 2, regressions: 0 };
    const sibling = createSibling(longer, { direction: "budget", lineage: ["base"], validation });
    expect(sibling).toEqual({
      id: "longer",
      hash: harnessHash(longer),
      config: longer,
      direction: "budget",
      lineage: ["base"],
      validation,
    });
    const pool = createPool({
      benchmark: "b",
      createdAt: "2026-01-01T00:00:00.000Z",
      policyVersion: "p",
      base,
      siblings: [sibling],
    });
    expect(pool.base).toEqual({ id: "base", hash: harnessHash(base), config: base });
    expect(poolSchema.parse(pool)).toEqual(pool);
  });
});
