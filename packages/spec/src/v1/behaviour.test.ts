import { describe, expect, it } from "vitest";
import { behaviourFrequencyFileSchema } from "./behaviour.js";

const file = (tally: unknown) => ({
  benchmark: "dbbench",
  split: "test",
  harness: "base",
  siblings: [{ id: "sibling-verification", direction: "verification", behaviours: ["read-back"] }],
  rows: [{ policy: "grpo", seed: 1, "read-back": tally }],
});

describe("behaviourFrequencyFileSchema", () => {
  it("reads a row's tallies from the keys beside policy and seed", () => {
    const parsed = behaviourFrequencyFileSchema.parse(file({ shown: 3, applicable: 10 }));
    expect(parsed.rows[0]?.["read-back"]).toEqual({ shown: 3, applicable: 10 });
  });

  it("names the field of a tally shown more often than it had an occasion", () => {
    const parsed = behaviourFrequencyFileSchema.safeParse(file({ shown: 11, applicable: 10 }));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(["rows", 0, "read-back", "shown"]);
    expect(parsed.error?.issues[0]?.message).toMatch(/must not exceed applicable/);
  });
});
