import { parseAction, parseHarnessConfig } from "@hs/harness";
import { describe, expect, it } from "vitest";
import { miniSweAgentPreset, sweGymPresets } from "./presets.js";

const read = (content: string) => parseAction(miniSweAgentPreset.actionFormat, { content } as never, "c");

describe("presets", () => {
  it("every preset parses with parseHarnessConfig", () => {
    for (const preset of Object.values(sweGymPresets)) expect(parseHarnessConfig(preset)).toEqual(preset);
  });

  it("the mini-swe-agent rule takes exactly one bash block, its command stripped", () => {
    expect(read("THOUGHT: look\n\n```bash\n  ls -la\n```\n")).toEqual({
      ok: true,
      calls: [{ id: "c", name: "bash", arguments: { command: "ls -la" } }],
    });
    expect(read("THOUGHT\n```bash   \ncat <<'EOF' > a.py\nx = 1\nEOF\n```")).toMatchObject({
      ok: true,
      calls: [{ arguments: { command: "cat <<'EOF' > a.py\nx = 1\nEOF" } }],
    });
  });

  it("zero blocks, two blocks or a non-bash fence are format errors", () => {
    expect(read("I will run ls").ok).toBe(false);
    expect(read("```bash\nls\n```\nthen\n```bash\ncat x\n```").ok).toBe(false);
    expect(read("```sh\nls\n```").ok).toBe(false);
    expect(read("```bash\nls```").ok).toBe(false);
  });

  it("re-prompts format errors with mini-swe-agent's text and keeps 250 steps", () => {
    expect(miniSweAgentPreset.errorRecovery.malformedActionTemplate).toMatch(
      /^Please always provide EXACTLY ONE action/,
    );
    expect(miniSweAgentPreset.budget.maxSteps).toBe(250);
    expect(miniSweAgentPreset.prompt.taskTemplate).toContain(
      "<pr_description>\nConsider the following PR description:\n{instruction}",
    );
    expect(miniSweAgentPreset.prompt.taskTemplate).toContain(
      "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached",
    );
  });
});
