import { describe, expect, it } from "vitest";
import { fixtureView, viewAfter } from "./__fixtures__/views.js";
import { readView } from "./read-view.js";

describe("readView", () => {
  it("reads the statement, files, traceback frames, the edit and the failing test run", () => {
    const read = readView(fixtureView("exprcalc-8-text"));
    expect(read.statement).toMatch(/^round\(x, digits\) crashes with a TypeError/);
    expect(read.terms.expressions).toContain('evaluate("round(3.14159, 2)")');
    expect(read.files.slice(0, 5)).toEqual([
      "exprcalc/__init__.py",
      "exprcalc/evaluator.py",
      "exprcalc/tokens.py",
      "tests/test_evaluate.py",
      "tests/test_tokens.py",
    ]);
    const frames = read.locations
      .filter((location) => location.source === "traceback")
      .map((location) => location.line);
    expect(frames.slice(0, 7)).toEqual([125, 43, 51, 70, 73, 108, 96]);
    expect(read.locations.every((location) => !location.file.startsWith("/"))).toBe(true);
    expect(read.edits).toHaveLength(1);
    expect(read.edits[0]).toMatchObject({
      file: "exprcalc/evaluator.py",
      line: 96,
      applied: true,
      reverted: false,
    });
    expect(read.shown.get("exprcalc/evaluator.py")?.get(96)?.text).toBe(read.edits[0]?.replacement);
    expect(read.tests.at(-1)).toMatchObject({
      passed: false,
      failedIds: ["tests/test_evaluate.py::test_functions"],
    });
  });

  it("reads native tool calls and tool messages the same way", () => {
    const text = readView(fixtureView("exprcalc-8-text"));
    const tools = readView(fixtureView("exprcalc-8-tools"));
    expect(tools.nativeTools).toBe(true);
    expect(tools.submitTool?.name).toBe("submit");
    expect(tools.statement).toBe(text.statement);
    expect(tools.files).toEqual(text.files);
    expect(tools.edits.map((edit) => edit.line)).toEqual(text.edits.map((edit) => edit.line));
  });

  it("reads search hits as shown lines, and a passing test run", () => {
    const read = readView(fixtureView("durations-4-text"));
    expect(read.searched).toEqual(new Set(["parse"]));
    expect(read.shown.get("durations/parse.py")?.get(16)?.text).toBe("def parse(text):");
    expect(read.tests.at(-1)?.passed).toBe(true);
    expect(readView(viewAfter(fixtureView("durations-4-text"), 0)).steps).toEqual([]);
  });
});
