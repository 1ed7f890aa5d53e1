import { describe, expect, it } from "vitest";
import { checkArguments, checkStepBudget, parseNumberText } from "./arguments.js";
import type { Command } from "./command.js";
import { commands } from "./commands/index.js";

const command = (name: string) => commands.find((candidate) => candidate.name === name) as Command;

describe("the strict argument parser", () => {
  it("accepts decimal numbers in range and refuses everything else, naming the option", () => {
    expect(parseNumberText("budget", "512", { kind: "integer", min: 1 })).toBe(512);
    expect(parseNumberText("learning-rate", "5e-2", { kind: "number", min: 0, exclusiveMin: true })).toBe(
      0.05,
    );
    for (const text of [
      "",
      " ",
      "0x10",
      "0b1",
      "1e3",
      "1.5",
      "Infinity",
      "NaN",
      "12abc",
      "99999999999999999999",
    ])
      expect(() => parseNumberText("budget", text, { kind: "integer", min: 1 }), text).toThrow(
        /--budget expects/,
      );
    expect(() => parseNumberText("k", "0", { kind: "integer", min: 1 })).toThrow(
      "--k expects an integer of at least 1, got 0",
    );
    expect(() => parseNumberText("x", "1e400", { kind: "number" })).toThrow(/out of range/);
  });

  it("refuses stray positionals, empty strings and options without their companion", () => {
    expect(() =>
      checkArguments(command("train"), { values: { "no-negative": true }, positionals: ["false"] }),
    ).toThrow(/unexpected argument "false"/);
    expect(() => checkArguments(command("report"), { values: {}, positionals: ["a", "b"] })).not.toThrow();
    expect(() => checkArguments(command("train"), { values: { out: "" }, positionals: [] })).toThrow(
      /--out expects a value/,
    );
    expect(() =>
      checkArguments(command("evolve"), { values: { "llm-base-url": "http://x" }, positionals: [] }),
    ).toThrow("--llm-base-url needs --llm-model");
    expect(() =>
      checkArguments(command("route"), { values: { "judge-timeout": "-5" }, positionals: [] }),
    ).toThrow(/--judge-timeout expects an integer of at least 1/);
  });

  it("refuses a budget below one group and warns below one full step", () => {
    const warnings: string[] = [];
    expect(() => checkStepBudget(4, 8, 8, (message) => warnings.push(message))).toThrow(
      /smaller than one step/,
    );
    checkStepBudget(16, 8, 8, (message) => warnings.push(message));
    expect(warnings).toEqual([expect.stringContaining("the only step trains 2 groups")]);
    checkStepBudget(64, 8, 8, (message) => warnings.push(message));
    expect(warnings.length).toBe(1);
  });
});
