import { describe, expect, it } from "vitest";
import { aggregateLoss, tokenWeights } from "./aggregation.js";

const losses = [[1, 2, 3], [4]];

describe("loss aggregation", () => {
  it("token-mean averages over every token of the batch", () => {
    expect(aggregateLoss(losses, "token-mean")).toBeCloseTo(10 / 4, 12);
  });

  it("seq-mean-token-mean averages within each sequence, then over sequences", () => {
    expect(aggregateLoss(losses, "seq-mean-token-mean")).toBeCloseTo((2 + 4) / 2, 12);
  });

  it("seq-mean-token-sum-norm divides token sums by a constant, then averages over sequences", () => {
    expect(aggregateLoss(losses, "seq-mean-token-sum-norm")).toBeCloseTo((6 / 3 + 4 / 3) / 2, 12);
    expect(aggregateLoss(losses, "seq-mean-token-sum-norm", 10)).toBeCloseTo(0.5, 12);
  });

  it("gives per-token weights in sequence order", () => {
    expect(tokenWeights([2, 1], "seq-mean-token-mean")).toEqual([[0.25, 0.25], [0.5]]);
    expect(tokenWeights([], "token-mean")).toEqual([]);
    expect(() => tokenWeights([1], "seq-mean-token-sum-norm", 0)).toThrow(/positive/);
  });
});
