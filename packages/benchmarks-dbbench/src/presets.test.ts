import { describe, expect, it } from "vitest";
import { fcPreset, v02Preset } from "./presets.js";

function parse(reply: string): { tool: string; argument: string } | undefined {
  if (v02Preset.actionFormat.kind !== "text") throw new Error("v0.2 is a text protocol");
  for (const rule of v02Preset.actionFormat.rules) {
    const match = new RegExp(rule.pattern, rule.flags).exec(reply);
    if (match) return { tool: rule.tool, argument: match[Number(Object.values(rule.arguments)[0])] ?? "" };
  }
  return undefined;
}

describe("v0.2 text protocol rules (AgentBench v0.2 __init__.py)", () => {
  it("executes the first sql block when the first Action line is Operation", () => {
    expect(parse("Let me look.\nAction: Operation\n```sql\nSELECT 1;\n```\nFinal Answer: [1]")).toEqual({
      tool: "execute_sql",
      argument: "SELECT 1;",
    });
  });
  it("fails an Operation without a sql block even when a Final Answer follows", () => {
    expect(parse("Action: Operation\nSELECT 1\nFinal Answer: [1]")).toBeUndefined();
  });
  it("takes the Final Answer line text for any other action", () => {
    expect(parse('Done.\nAction: Answer\nFinal Answer: ["a", "b"]')).toEqual({
      tool: "commit_final_answer",
      argument: ': ["a", "b"]',
    });
    expect(parse("Final Answer: [1]")).toBeUndefined();
  });
  it("uses AgentBench's round limit and truncation", () => {
    expect(v02Preset.budget.maxSteps).toBe(16);
    expect(fcPreset.budget.maxSteps).toBe(15);
    expect(fcPreset.context).toMatchObject({
      truncateObservationChars: 800,
      truncationMarker: "[TRUNCATED]",
    });
  });
});
