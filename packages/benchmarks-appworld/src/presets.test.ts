import { parseHarnessConfig } from "@hs/harness";
import { describe, expect, it } from "vitest";
import {
  appworldPresets,
  notShownMarker,
  reactInstructions,
  reactPreset,
  verlAgentPreset,
} from "./presets.js";

function firstRule(preset: typeof reactPreset) {
  if (preset.actionFormat.kind !== "text") throw new Error("expected a text protocol");
  const rule = preset.actionFormat.rules[0];
  if (rule === undefined) throw new Error("no rule");
  return new RegExp(rule.pattern, rule.flags);
}

describe("AppWorld presets", () => {
  it("parse with parseHarnessConfig", () => {
    for (const [name, preset] of Object.entries(appworldPresets))
      expect(parseHarnessConfig(preset, { file: name })).toEqual(preset);
  });

  it("ReAct: python blocks, API discovery, credentials, paging, complete_task, 50 steps", () => {
    for (const fact of [
      "show_app_descriptions()",
      "show_api_descriptions(app_name=",
      "show_api_doc(app_name=",
      "show_account_passwords()",
      "page_index",
      "apis.supervisor.complete_task(answer=...)",
    ]) {
      expect(reactInstructions).toContain(fact);
    }
    expect(reactPreset.budget.maxSteps).toBe(50);
    expect(reactPreset.prompt.taskTemplate).toMatch(/\nTask: \{instruction\}$/);
    expect(firstRule(reactPreset).exec("I will look.\n```python\nprint(1)\n```\nmore")?.[1]).toBe(
      "print(1)\n",
    );
    expect(firstRule(reactPreset).exec("no code")).toBeNull();
  });

  it("verl-agent: both <think> and <code> or the action is invalid", () => {
    const rule = firstRule(verlAgentPreset);
    expect(rule.exec("<think>plan</think>\n<code>x = 1</code>")?.[1]).toBe("x = 1");
    expect(rule.exec("<code>x = 1</code>")).toBeNull();
    expect(rule.exec("<think>plan only</think>")).toBeNull();
    expect(verlAgentPreset.context).toMatchObject({ keepLastTurns: 5, truncateObservationChars: 10_000 });
    expect(verlAgentPreset.budget.maxSteps).toBe(50);
  });
});

describe("AppWorld's ReAct history rule", () => {
  it("is the context section's trimOlderOutputs: 50,000 characters, the last 5 messages kept", () => {
    expect(reactPreset.context.trimOlderOutputs).toEqual({
      maxChars: 50_000,
      keepLastMessages: 5,
      marker: notShownMarker,
    });
  });
});
