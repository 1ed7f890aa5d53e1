import { describe, expect, it } from "vitest";
import { trajectoryDatums } from "./trajectory-datums.js";

describe("trajectoryDatums (cookbook rl/data_processing.py)", () => {
  it("merges a multi-turn trajectory whose observations extend the sequence into one Datum (hand-checked)", () => {
    // O1 = [10 11 12], A1 = [20 21]; O2 = O1 + A1 + [13 14], A2 = [22].
    const built = trajectoryDatums(
      [
        { observation: [10, 11, 12], action: [20, 21], logprobs: [-0.5, -0.25] },
        { observation: [10, 11, 12, 20, 21, 13, 14], action: [22], logprobs: [-2] },
      ],
      1.5,
    );
    expect(built).toHaveLength(1);
    const [only] = built;
    // full sequence: 10 11 12 20 21 13 14 22
    expect(only?.datum.model_input.chunks[0]?.tokens).toEqual([10, 11, 12, 20, 21, 13, 14]);
    expect(only?.datum.loss_fn_inputs.target_tokens?.data).toEqual([11, 12, 20, 21, 13, 14, 22]);
    expect(only?.mask).toEqual([0, 0, 1, 1, 0, 0, 1]);
    expect(only?.datum.loss_fn_inputs.logprobs?.data).toEqual([0, 0, -0.5, -0.25, 0, 0, -2]);
    expect(only?.datum.loss_fn_inputs.advantages?.data).toEqual([0, 0, 1.5, 1.5, 0, 0, 1.5]);
    expect(only?.datum.loss_fn_inputs.target_tokens?.dtype).toBe("int64");
    expect(only?.datum.loss_fn_inputs.advantages?.shape).toEqual([7]);
    expect(only?.datum.loss_fn_inputs.mask).toBeUndefined();
  });

  it("starts a new Datum when an observation does not extend the sequence (e.g. a trimmed context)", () => {
    const built = trajectoryDatums(
      [
        { observation: [1, 2], action: [3], logprobs: [-1] },
        { observation: [1, 9, 4], action: [5, 6], logprobs: [-1, -1] },
      ],
      -1,
    );
    expect(built.map((entry) => entry.datum.model_input.chunks[0]?.tokens)).toEqual([
      [1, 2],
      [1, 9, 4, 5],
    ]);
    expect(built.map((entry) => entry.mask)).toEqual([
      [0, 1],
      [0, 0, 1, 1],
    ]);
    expect(built[1]?.datum.loss_fn_inputs.advantages?.data).toEqual([0, 0, -1, -1]);
  });

  it("refuses a step whose log-probabilities do not match its tokens", () => {
    expect(() => trajectoryDatums([{ observation: [1], action: [2, 3], logprobs: [-1] }], 1)).toThrow(
      /1 log-probabilities for 2 tokens/,
    );
  });
});
