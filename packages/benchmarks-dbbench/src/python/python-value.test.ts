import { describe, expect, it } from "vitest";
import { pythonEval } from "./python-eval.js";
import { pythonFloatRepr, pythonRepr, pythonStrRepr } from "./python-value.js";

describe("Python repr and eval", () => {
  it("renders floats as Python does", () => {
    expect([293, 0.1, 1e16, 1e-5, 2.5, -0, 123456789012345.6].map(pythonFloatRepr)).toEqual([
      "293.0",
      "0.1",
      "1e+16",
      "1e-05",
      "2.5",
      "-0.0",
      "123456789012345.6",
    ]);
  });
  it("renders strings with Python's quote choice and escapes", () => {
    expect(pythonStrRepr("Checco D'Angelo")).toBe(`"Checco D'Angelo"`);
    expect(pythonStrRepr(`a'b"c`)).toBe(`'a\\'b"c'`);
    expect(pythonStrRepr("x\ny\u0001é")).toBe("'x\\ny\\x01é'");
  });
  it("renders a result as a tuple list", () => {
    const value = pythonEval("[('x',), (1, None, 2.0)]");
    expect(value === undefined ? "" : pythonRepr(value)).toBe("[('x',), (1, None, 2.0)]");
  });
  it("refuses what Python's eval would refuse", () => {
    expect(pythonEval("[Decimal('5')]")).toBeUndefined();
    expect(pythonEval("['unterminated]")).toBeUndefined();
  });
});
