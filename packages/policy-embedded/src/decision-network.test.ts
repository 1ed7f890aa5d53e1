import { describe, expect, it } from "vitest";
import { initializeBackend, tf } from "./backend.js";
import { DecisionNetwork, gatherWithGradient } from "./decision-network.js";

await initializeBackend();

describe("gatherWithGradient", () => {
  it("sums the gradient of repeated indices", () => {
    const source = tf.tensor1d([1, 2, 3]);
    const gradient = tf.grad((input: tf.Tensor) =>
      gatherWithGradient(input, tf.tensor2d([0, 0, 2], [3, 1], "int32")).sum(),
    );
    expect(Array.from(gradient(source).dataSync())).toEqual([2, 0, 1]);
  });
});

describe("DecisionNetwork", () => {
  it("gives each decision a normalised distribution and the gradient of log-softmax", () => {
    const network = new DecisionNetwork({ featureCount: 2, decisionBuckets: 4, hiddenSizes: [3], seed: 1 });
    const rows = {
      features: new Float32Array([0, 1, 1, 0, 0.5, 0.5, 1, 1, -1, 0]),
      buckets: new Int32Array([1, 2]),
      optionCounts: [3, 2],
      chosen: [2, 0],
    };
    const table = tf.tidy(() => network.logSoftmax(rows).arraySync());
    const first = (table[0] ?? []).slice(0, 3).reduce((sum, value) => sum + Math.exp(value), 0);
    const second = (table[1] ?? []).slice(0, 2).reduce((sum, value) => sum + Math.exp(value), 0);
    expect(first).toBeCloseTo(1, 5);
    expect(second).toBeCloseTo(1, 5);
    const chosen = tf.tidy(() => Array.from(network.chosenLogprobs(rows).dataSync()));
    expect(chosen[0]).toBeCloseTo(table[0]?.[2] ?? 0, 6);
    expect(chosen[1]).toBeCloseTo(table[1]?.[0] ?? 0, 6);
    const { grads } = tf.variableGrads(() => network.chosenLogprobs(rows).sum() as tf.Scalar);
    const norms = Object.values(grads).map((gradient) => tf.norm(gradient).dataSync()[0] ?? 0);
    expect(Math.max(...norms)).toBeGreaterThan(0);
    for (const gradient of Object.values(grads)) gradient.dispose();
    network.dispose();
  });
});
