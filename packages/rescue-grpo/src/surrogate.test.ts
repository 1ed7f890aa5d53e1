import { describe, expect, it } from "vitest";
import { k3Kl, tokenLoss } from "./surrogate.js";

const symmetric = { low: 0.2, high: 0.2 };
const higher = { low: 0.2, high: 0.28 };

describe("tokenLoss", () => {
  it("is -ratio * A inside the clip range", () => {
    const loss = tokenLoss(Math.log(1.1), 0, 2, symmetric);
    expect(loss.ratio).toBeCloseTo(1.1, 12);
    expect(loss.clipped).toBe(false);
    expect(loss.policyLoss).toBeCloseTo(-2.2, 12);
  });

  it("clips a positive advantage above 1 + eps_high", () => {
    const loss = tokenLoss(Math.log(1.5), 0, 1, symmetric);
    expect(loss.clipped).toBe(true);
    expect(loss.policyLoss).toBeCloseTo(-1.2, 12);
    const dapo = tokenLoss(Math.log(1.5), 0, 1, higher);
    expect(dapo.policyLoss).toBeCloseTo(-1.28, 12);
    // below 1 - eps_low a positive advantage is not clipped (min keeps the pessimistic term)
    const low = tokenLoss(Math.log(0.5), 0, 1, symmetric);
    expect(low.clipped).toBe(false);
    expect(low.policyLoss).toBeCloseTo(-0.5, 12);
  });

  it("clips a negative advantage below 1 - eps_low", () => {
    const loss = tokenLoss(Math.log(0.5), 0, -1, symmetric);
    expect(loss.clipped).toBe(true);
    expect(loss.policyLoss).toBeCloseTo(0.8, 12);
    // above 1 + eps_high a negative advantage is not clipped
    const high = tokenLoss(Math.log(1.5), 0, -1, symmetric);
    expect(high.clipped).toBe(false);
    expect(high.policyLoss).toBeCloseTo(1.5, 12);
  });

  it("adds the weighted k3 KL to the reference", () => {
    const loss = tokenLoss(Math.log(0.5), Math.log(0.5), 1, symmetric, 0.1, Math.log(0.25));
    expect(loss.kl).toBeCloseTo(0.5 + Math.log(0.5) * -1 - 1, 12);
    expect(loss.loss).toBeCloseTo(-1 + 0.1 * 0.19314718056, 10);
  });
});

describe("k3Kl", () => {
  it("matches hand values and is zero at equality", () => {
    // log r = ln 0.25 - ln 0.5 = -ln 2; exp = 0.5; 0.5 + ln 2 - 1
    expect(k3Kl(Math.log(0.5), Math.log(0.25))).toBeCloseTo(0.19314718056, 10);
    // log r = ln 2; exp = 2; 2 - ln 2 - 1
    expect(k3Kl(Math.log(0.25), Math.log(0.5))).toBeCloseTo(0.30685281944, 10);
    expect(k3Kl(-1.3, -1.3)).toBe(0);
  });

  it("is an unbiased estimate of KL(p || q) for sampled outcomes", () => {
    const p = [0.6, 0.3, 0.1];
    const q = [0.2, 0.5, 0.3];
    const exact = p.reduce((sum, pi, index) => sum + pi * Math.log(pi / (q[index] ?? 1)), 0);
    const expectation = p.reduce(
      (sum, pi, index) => sum + pi * k3Kl(Math.log(pi), Math.log(q[index] ?? 1)),
      0,
    );
    expect(expectation).toBeCloseTo(exact, 12);
  });
});
