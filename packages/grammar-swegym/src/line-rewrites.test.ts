import { describe, expect, it } from "vitest";
import { lineRewrites, type RewriteContext, type RewriteKind } from "./line-rewrites.js";
import { tokenizeLine } from "./python-tokens.js";

const none: RewriteContext = { nearbyLines: [], statementNumbers: [], statementCharacters: [] };

function rewritesOf(line: string, context: RewriteContext = none): Map<string, RewriteKind> {
  return new Map(lineRewrites(line, context).map((rewrite) => [rewrite.text, rewrite.kind]));
}

describe("tokenizeLine", () => {
  it("keeps strings, comments and operators whole, and joins back to the line", () => {
    const line = `    if a <= b and s == "x <= y":  # keep <= here`;
    const tokens = tokenizeLine(line);
    expect(tokens.map((token) => token.text).join("")).toBe(line);
    expect(tokens.filter((token) => token.kind === "string").map((token) => token.text)).toEqual([
      '"x <= y"',
    ]);
    expect(tokens.at(-1)).toEqual({ kind: "comment", text: "# keep <= here" });
  });
});

describe("lineRewrites", () => {
  it("flips comparisons and booleans outside strings and comments", () => {
    const rewrites = rewritesOf(`    if a <= b and s == "x <= y":  # keep <= here`);
    expect(rewrites.get(`    if a < b and s == "x <= y":  # keep <= here`)).toBe("comparison");
    expect(rewrites.get(`    if a <= b and s != "x <= y":  # keep <= here`)).toBe("comparison");
    expect(rewrites.get(`    if a <= b or s == "x <= y":  # keep <= here`)).toBe("boolean");
    for (const text of rewrites.keys()) expect(text).toContain(`"x <= y"`);
  });

  it("adds and removes off-by-one steps in slices, ranges and f-strings", () => {
    expect(rewritesOf("    for i in range(0, n):").get("    for i in range(0, n + 1):")).toBe("off-by-one");
    expect(rewritesOf("    tail = items[start + 1:]").get("    tail = items[start:]")).toBe("off-by-one");
    expect(rewritesOf('    return f"{first + 1}-{last}"').get('    return f"{first}-{last}"')).toBe(
      "off-by-one",
    );
  });

  it("swaps operands, fixes precedence and turns assignment into accumulation", () => {
    expect(rewritesOf("    delta = end - start").get("    delta = start - end")).toBe("swap-operands");
    expect(
      rewritesOf("    average = total + extra / count").get("    average = (total + extra) / count"),
    ).toBe("precedence");
    expect(rewritesOf("    seen = value").get("    seen += value")).toBe("accumulate");
  });

  it("renames to names of the same shape seen nearby, and uses the issue's numbers", () => {
    const context = {
      nearbyLines: ["    width = self.measure(text)", "    height = 3"],
      statementNumbers: ["42"],
      statementCharacters: [],
    };
    const rewrites = rewritesOf("    size = self.count(text) * 2", context);
    expect(rewrites.get("    size = self.measure(text) * 2")).toBe("identifier");
    expect(rewrites.get("    size = self.count(text) * 42")).toBe("literal");
    expect(rewrites.has("    size = self.width(text) * 2")).toBe(false);
  });

  it("offers nothing for comments, docstrings and definitions, and never the line itself", () => {
    for (const line of ["    # a < b", '    """Return a < b."""', "def f(a, b=1):", "import os", ""]) {
      expect(lineRewrites(line, none)).toEqual([]);
    }
    const line = "    return a < b";
    expect(lineRewrites(line, none).map((rewrite) => rewrite.text)).not.toContain(line);
  });
});
