import { describe, expect, it } from "vitest";
import { lineRewrites } from "./line-rewrites.js";

const context = { nearbyLines: [], statementNumbers: [], statementCharacters: [] };

function texts(line: string): string[] {
  return lineRewrites(line, context).map((rewrite) => rewrite.text);
}

describe("keeping a thrown-away result", () => {
  it("assigns a call's result back to its first argument, or a copying method's to its receiver", () => {
    expect(texts("    canonical(unit)")).toContain("    unit = canonical(unit)");
    expect(texts("        self.name.strip()")).toContain("        self.name = self.name.strip()");
    expect(lineRewrites("    canonical(unit)", context).at(-1)?.kind).toBe("accumulate");
  });

  it("leaves calls made for what they do", () => {
    expect(texts("    items.append(value)").some((text) => text.includes("items = "))).toBe(false);
    expect(texts("    self.check(value)").some((text) => text.includes(" = "))).toBe(false);
    expect(texts("    print(value)").some((text) => text.includes(" = "))).toBe(false);
    expect(texts("    total = compute(value)").some((text) => text.includes("value = "))).toBe(false);
  });
});

describe("a guard on what a change of text needs", () => {
  it("puts a line that strips or splits on a character under a test that the character is there", () => {
    const line = '        text = text.rstrip("0").rstrip(".")';
    expect(texts(line)).toContain('        if "." in text:\n            text = text.rstrip("0").rstrip(".")');
    expect(texts(line)).toContain('        if "0" in text:\n            text = text.rstrip("0").rstrip(".")');
    expect(texts('\tparts = row.cells.split(",")')).toContain(
      '\tif "," in row.cells:\n\t\tparts = row.cells.split(",")',
    );
  });

  it("guards only whole simple statements, and every other rewrite stays one line", () => {
    expect(texts('    if text.strip("."):').some((text) => text.includes("\n"))).toBe(false);
    expect(texts('    return text.split(",")').some((text) => text.includes("\n"))).toBe(false);
    expect(texts('    parts = text.split(",",').some((text) => text.includes("\n"))).toBe(false);
    expect(texts("    parts = text.split(sep)").some((text) => text.includes("\n"))).toBe(false);
  });
});
