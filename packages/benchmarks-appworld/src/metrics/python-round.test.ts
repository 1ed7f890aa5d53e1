import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { pythonRound } from "./python-round.js";

function pythonRounds(values: readonly number[], digits: number): number[] {
  const script = `import json,sys\nprint(json.dumps([round(v, ${digits}) for v in json.load(sys.stdin)]))`;
  const output = execFileSync("python3", ["-c", script], { input: JSON.stringify(values) });
  return JSON.parse(output.toString()) as number[];
}

describe("pythonRound", () => {
  it("rounds the binary double half to even as Python does (56/57 -> 98.2, 2.675 -> 2.67, 0.25 -> 0.2)", () => {
    expect(pythonRound(100 * pythonRound(56 / 57, 4), 1)).toBe(98.2);
    expect(Math.round(100 * pythonRound(56 / 57, 4) * 10) / 10).toBe(98.3);
    expect(pythonRound(2.675, 2)).toBe(2.67);
    expect(pythonRound(0.25, 1)).toBe(0.2);
    expect(pythonRound(0.35, 1)).toBe(0.3);
    expect(pythonRound(2.5, 0)).toBe(2);
    expect(pythonRound(-1.5, 0)).toBe(-2);
    expect(pythonRound(12.34, 1)).toBe(12.3);
  });

  it("equals python3's round on every AppWorld percentage of up to 200 tasks", () => {
    const fractions: number[] = [];
    for (let total = 1; total <= 200; total += 1)
      for (let passed = 0; passed <= total; passed += 1) fractions.push(passed / total);
    const means = fractions.map((value) => pythonRound(value, 4));
    expect(means).toEqual(pythonRounds(fractions, 4));
    const percents = means.map((mean) => 100 * mean);
    expect(percents.map((value) => pythonRound(value, 1))).toEqual(pythonRounds(percents, 1));
    const halves = Array.from({ length: 400 }, (_, index) => index / 8 - 20);
    expect(halves.map((value) => pythonRound(value, 1))).toEqual(pythonRounds(halves, 1));
    expect(halves.map((value) => pythonRound(value, 0))).toEqual(pythonRounds(halves, 0));
  });
});
