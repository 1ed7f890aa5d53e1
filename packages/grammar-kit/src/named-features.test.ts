import { describe, expect, it } from "vitest";
import { namedFeatures } from "./named-features.js";

describe("namedFeatures", () => {
  const features = namedFeatures(["fit", "order", "bias"] as const);

  it("builds vectors by name with the bias set, over zeros or over a base vector", () => {
    expect(features.vector({ order: 2 })).toEqual([0, 2, 1]);
    expect(features.over([5, 6, 0], { fit: 1 })).toEqual([1, 6, 1]);
    expect(features.weights({ fit: 3 })).toEqual([3, 0, 0]);
    expect(features.index.get("bias")).toBe(2);
  });

  it("needs a bias feature", () => {
    expect(() => namedFeatures(["fit"])).toThrow(/bias/);
  });
});
