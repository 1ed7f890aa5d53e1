import { describe, expect, it } from "vitest";
import { spread, welch } from "./statistics.js";

describe("spread", () => {
  it("gives mean, sample std and range", () => {
    const result = spread([0.2, 0.4, 0.6]);
    expect(result.mean).toBeCloseTo(0.4, 12);
    expect(result.std).toBeCloseTo(0.2, 12);
    expect([result.min, result.max]).toEqual([0.2, 0.6]);
    expect(spread([0.5]).std).toBe(0);
    expect(Number.isNaN(spread([]).mean)).toBe(true);
  });
});

describe("welch", () => {
  it("matches a hand computation", () => {
    // a: mean 2, var 1; b: mean 1, var 1; n = 3 each: t = 1 / sqrt(2/3), df = 4.
    const result = welch([1, 2, 3], [0, 1, 2]);
    expect(result?.t).toBeCloseTo(1 / Math.sqrt(2 / 3), 12);
    expect(result?.degreesOfFreedom).toBeCloseTo(4, 12);
    expect(welch([1], [2, 3])).toBeNull();
    expect(welch([1, 1], [1, 1])).toBeNull();
  });
});
