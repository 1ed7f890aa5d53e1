import { describe, expect, it } from "vitest";
import { statementRewriteKinds } from "./statement-kinds.js";

describe("statementRewriteKinds", () => {
  it("reads rewrite kinds from an issue's wording", () => {
    const kinds = statementRewriteKinds("Upper-case units are rejected: `parse('2H')` raises.");
    expect(kinds.has("normalize")).toBe(true);
    expect(kinds.has("swap-operands")).toBe(false);
    expect(statementRewriteKinds("Subtraction gives the wrong sign").has("swap-operands")).toBe(true);
    expect(statementRewriteKinds("The hunk header points one line too far").has("off-by-one")).toBe(true);
  });

  it("finds none in a statement without such words", () => {
    expect(statementRewriteKinds("Crash on load.").size).toBe(0);
  });
});
