import { describe, expect, it } from "vitest";
import { lineRewrites, type RewriteContext } from "./line-rewrites.js";
import { statementCharacters } from "./widening-rewrites.js";

function kindOf(line: string, wanted: string, context: Partial<RewriteContext> = {}): string | undefined {
  const full = { nearbyLines: [], statementNumbers: [], statementCharacters: [], ...context };
  return lineRewrites(line, full).find((rewrite) => rewrite.text === wanted)?.kind;
}

describe("statementCharacters", () => {
  it("takes the characters that open a quoted or code value, never letters, digits or brackets", () => {
    const statement =
      'Use `_base`: `infer_type(["+5", "3"])` gives `[5.0]`, `.5` too; `"-5"` is fine, so is \'_\'.';
    expect(statementCharacters(statement)).toEqual(["_", "+", ".", "-"]);
    expect(statementCharacters('Crash on `load()` with "abc".')).toEqual([]);
  });
});

describe("widening rewrites", () => {
  const characters = { statementCharacters: ["+", "_"] };

  it("widens a one-character comparison and a character test with the issue's characters", () => {
    const line = '    body = text[1:] if text[:1] == "-" else text';
    expect(kindOf(line, '    body = text[1:] if text[:1] in "+-" else text', characters)).toBe("comparison");
    expect(
      kindOf("        elif char.isalpha():", '        elif char.isalpha() or char == "_":', characters),
    ).toBe("condition");
    expect(kindOf(line, '    body = text[1:] if text[:1] in "+-" else text')).toBeUndefined();
  });

  it("adds a factor the nearby products have, and doubles a ratio", () => {
    const nearbyLines = ['    "d": 24 * 3600,', '    "h": 3600,'];
    expect(kindOf('    "w": 7 * 3600,', '    "w": 7 * 24 * 3600,', { nearbyLines })).toBe("arithmetic");
    expect(kindOf('    "w": 7 * 3600,', '    "w": 7 * 3600 * 3600,', { nearbyLines })).toBeUndefined();
    expect(kindOf("    return equal / total", "    return 2 * equal / total")).toBe("arithmetic");
  });

  it("drops empty items from a returned list, and leaves other returns alone", () => {
    expect(kindOf("        return items", "        return [item for item in items if item]")).toBe(
      "condition",
    );
    expect(kindOf("        return item", "        return [entry for entry in item if entry]")).toBe(
      "condition",
    );
    const others = lineRewrites("        return None", {
      nearbyLines: [],
      statementNumbers: [],
      statementCharacters: [],
    });
    expect(others.some((rewrite) => rewrite.text.includes(" for "))).toBe(false);
  });
});
