import { DecisionWalk } from "@hs/grammar-kit";
import { InvalidInputError } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { asksNext, type DraftOption, maxOptions, pick } from "./draft-options.js";
import { featureNames } from "./features.js";

const options: DraftOption<number>[] = Array.from({ length: 30 }, (_, index) => ({
  label: `n:${index % 27}`,
  features: { "app:relevance": index },
  value: index,
}));

describe("pick", () => {
  it("asks the decision when the walk has no label left: each label once, at most maxOptions", () => {
    const step = pick(new DecisionWalk([]), "number", options);
    if (!asksNext(step) || step.done) throw new Error("expected the decision");
    expect(step.decision.name).toBe("number");
    expect(step.decision.options).toHaveLength(maxOptions);
    expect(step.decision.options.map((option) => option.label)).toEqual(
      Array.from({ length: maxOptions }, (_, index) => `n:${index}`),
    );
    const relevance = featureNames.indexOf("app:relevance");
    expect(step.decision.options[3]?.features[relevance]).toBe(3);
    expect(step.decision.options[3]?.features).toHaveLength(featureNames.length);
  });

  it("returns the chosen option and moves the walk on", () => {
    const walk = new DecisionWalk(["n:5", "n:6"]);
    expect(pick(walk, "first", options)).toMatchObject({ label: "n:5", value: 5 });
    expect(pick(walk, "second", options)).toMatchObject({ label: "n:6", value: 6 });
    expect(asksNext(pick(walk, "third", options))).toBe(true);
  });

  it("refuses a label that is not an offered option, naming it and the decision", () => {
    // n:25 is an option past the first maxOptions, so it is never offered
    for (const label of ["n:25", "kind:other"]) {
      const attempt = () => pick(new DecisionWalk([label]), "number", options);
      expect(attempt).toThrow(InvalidInputError);
      expect(attempt).toThrow(`"${label}" is not an option of decision "number"`);
    }
  });
});
