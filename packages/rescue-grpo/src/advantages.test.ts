import { describe, expect, it } from "vitest";
import { groupAdvantages, hasZeroVariance } from "./advantages.js";

describe("groupAdvantages", () => {
  it("GRPO: (r - mean) / (sample std + 1e-6)", () => {
    // mean 0.5, sample variance (4 * 0.25) / 3 = 1/3, std 0.5773502692
    const expected = 0.5 / (Math.sqrt(1 / 3) + 1e-6);
    const advantages = groupAdvantages([1, 0, 0, 1], "grpo");
    expect(advantages[0]).toBeCloseTo(0.8660239, 6);
    expect(advantages).toEqual([expected, -expected, -expected, expected]);
    // mean 0.25, sample variance 0.75 / 3 = 0.25, std 0.5
    const single = groupAdvantages([1, 0, 0, 0], "grpo");
    expect(single[0]).toBeCloseTo(0.75 / 0.500001, 9);
    expect(single[1]).toBeCloseTo(-0.25 / 0.500001, 9);
  });

  it("Dr. GRPO: r - mean", () => {
    expect(groupAdvantages([1, 0, 0, 0], "dr-grpo")).toEqual([0.75, -0.25, -0.25, -0.25]);
    expect(groupAdvantages([0.5, 1], "dr-grpo")).toEqual([-0.25, 0.25]);
  });

  it("RLOO: r - mean of the others", () => {
    const advantages = groupAdvantages([1, 0, 0, 0], "rloo");
    expect(advantages[0]).toBe(1);
    expect(advantages[1]).toBeCloseTo(-1 / 3, 12);
    const mixed = groupAdvantages([1, 0, 0, 1], "rloo");
    expect(mixed[0]).toBeCloseTo(2 / 3, 12);
    expect(mixed[1]).toBeCloseTo(-2 / 3, 12);
  });

  it("gives zero signal to a group of equal rewards, for every method", () => {
    for (const method of ["grpo", "dr-grpo", "rloo"] as const) {
      expect(groupAdvantages([0, 0, 0, 0], method)).toEqual([0, 0, 0, 0]);
      expect(groupAdvantages([1, 1, 1], method)).toEqual([0, 0, 0]);
    }
    expect(hasZeroVariance([0, 0, 0])).toBe(true);
    expect(hasZeroVariance([0, 1, 0])).toBe(false);
  });

  it("gives a lone rollout no advantage and rejects bad rewards", () => {
    expect(groupAdvantages([1], "grpo")).toEqual([0]);
    expect(() => groupAdvantages([], "grpo")).toThrow(/at least one/);
    expect(() => groupAdvantages([Number.NaN, 1], "rloo")).toThrow(/not finite/);
  });
});
