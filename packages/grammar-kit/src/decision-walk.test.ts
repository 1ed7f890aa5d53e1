import { describe, expect, it } from "vitest";
import { DecisionWalk, labelValue } from "./decision-walk.js";

describe("DecisionWalk", () => {
  it("gives the chosen labels in order, then null at the decision to ask for", () => {
    const walk = new DecisionWalk(["kind:edit", "line:12"]);
    expect([walk.take(), walk.take(), walk.take()]).toEqual(["kind:edit", "line:12", null]);
  });

  it("reads a label's value after its first prefix", () => {
    expect(labelValue("column:a:b")).toBe("a:b");
    expect(labelValue("plain")).toBe("plain");
  });
});
