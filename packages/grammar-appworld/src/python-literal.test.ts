import { describe, expect, it } from "vitest";
import { instructionValues, valueMatchesInstruction } from "./instruction-values.js";
import { parsePythonLiteral, pythonSource } from "./python-literal.js";

describe("parsePythonLiteral", () => {
  it("reads printed dicts, lists, tuples, escapes and True/False/None", () => {
    expect(
      parsePythonLiteral("[{'a': 1, \"b\": 'it\\'s', 'c': [True, False, None], 'd': (1, 2.5)}]"),
    ).toEqual([{ a: 1, b: "it's", c: [true, false, null], d: [1, 2.5] }]);
    expect(parsePythonLiteral("Execution successful.")).toBeUndefined();
    expect(parsePythonLiteral("[1, 2")).toBeUndefined();
  });

  it("writes values back as Python", () => {
    expect(pythonSource({ a: [true, null, "x\ny"] })).toBe('{"a": [True, None, "x\\ny"]}');
  });
});

describe("instructionValues", () => {
  it("reads quoted spans, emails, numbers, dates, months and names", () => {
    const values = instructionValues(
      'Add Lena Marsh as "coworker": phone 5559012231, email lena.marsh@example.com, due 2026-05-21, paid in February 2026, $24.',
    );
    const byValue = Object.fromEntries(values.map((entry) => [String(entry.value), entry.source]));
    expect(byValue).toMatchObject({
      coworker: "quoted",
      "lena.marsh@example.com": "email",
      "5559012231": "number",
      "2026-05-21": "date",
      "2026-02": "month",
      "24": "number",
      "Lena Marsh": "name",
      Lena: "name-part",
    });
    expect(byValue).not.toHaveProperty("Add Lena");
  });

  it("matches a shown email to the name the instruction gives, and a word stem", () => {
    const instruction = "How many unread emails from Esme Kowalski are in my inbox on Mondays?";
    const values = instructionValues(instruction);
    expect(valueMatchesInstruction("esme.kowalski@example.com", instruction, values)).toBe(true);
    expect(valueMatchesInstruction("omar.kowalski@example.com", instruction, values)).toBe(false);
    expect(valueMatchesInstruction("monday", instruction, values)).toBe(true);
    expect(valueMatchesInstruction("friday", instruction, values)).toBe(false);
  });
});
