import { describe, expect, it } from "vitest";
import { askInOrder } from "./ordered-decision.js";

describe("askInOrder", () => {
  it("marks each option with where it stands, from 0 first to 1 last, on copies", () => {
    const options = [
      { label: "a", features: [1, 9, 1] },
      { label: "b", features: [0, 9, 1] },
      { label: "c", features: [0, 9, 1] },
    ];
    const step = askInOrder({ name: "pick", options }, 1);
    expect(step).toEqual({
      done: false,
      decision: {
        name: "pick",
        options: [
          { label: "a", features: [1, 0, 1] },
          { label: "b", features: [0, 0.5, 1] },
          { label: "c", features: [0, 1, 1] },
        ],
      },
    });
    expect(options[0]?.features).toEqual([1, 9, 1]);
  });

  it("gives a lone option order 0", () => {
    const step = askInOrder({ name: "only", options: [{ label: "x", features: [7, 1] }] }, 0);
    expect(step.done === false && step.decision.options[0]?.features).toEqual([0, 1]);
  });
});
