import { parseHarnessConfig } from "@hs/harness";
import type { HarnessConfig } from "@hs/spec";
import {
  miniSweAgentFormatErrorTemplate,
  miniSweAgentInstanceTemplate,
  miniSweAgentSystemTemplate,
} from "./mini-swe-agent-prompts.js";

/** mini-swe-agent's `action_regex` (agents/default.py): a ```bash fence, a newline, the command, a newline, a fence. */
const bashBlock = "```bash\\s*\\n([\\s\\S]*?)\\n```";
/** Two such blocks one after the other: `re.findall` would find two or more. */
const twoBashBlocks = "```bash\\s*\\n[\\s\\S]*?\\n```[\\s\\S]*?```bash\\s*\\n[\\s\\S]*?\\n```";

/**
 * The rule that reads a mini-swe-agent reply: exactly one bash block (`len(actions) == 1` in
 * `parse_action`); zero or several are a format error, re-prompted.
 */
export const exactlyOneBashBlockPattern = `^(?![\\s\\S]*?${twoBashBlocks})[\\s\\S]*?${bashBlock}`;

/** mini-swe-agent's step limit (swebench.yaml `step_limit: 250`); format errors count, as model calls do there. */
const miniSweAgentStepLimit = 250;

/** mini-swe-agent v1.17's bash-only SWE-bench protocol as a base harness. */
export const miniSweAgentPreset: HarnessConfig = parseHarnessConfig({
  schemaVersion: 1,
  id: "swegym-mini-swe-agent-base",
  description:
    "mini-swe-agent v1.17 bash-only protocol (SWE-agent/mini-swe-agent@v1.17.0 src/minisweagent/agents/default.py, " +
    "config/extra/swebench.yaml): THOUGHT and exactly one ```bash block per reply, anything else re-prompted with " +
    "format_error_template; each command in a new subshell (bash -c locally, bash -lc in docker) with a 60 s limit (a timeout is a message, not the " +
    "end); observations <returncode>/<output>, past 10,000 characters the first and last 5,000; submission when the " +
    "output's first line is COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT (then `git add -A && git diff --cached` is the patch); " +
    "250 steps; every turn kept.",
  prompt: {
    system: miniSweAgentSystemTemplate,
    taskTemplate: miniSweAgentInstanceTemplate,
    hints: [],
    hintPlacement: "task",
    examples: [],
  },
  actionFormat: {
    kind: "text",
    rules: [{ tool: "bash", pattern: exactlyOneBashBlockPattern, flags: "", arguments: { command: 1 } }],
  },
  context: { keepLastTurns: null, truncateObservationChars: null, truncationMarker: "", pinTask: true },
  errorRecovery: {
    toolErrorTemplate: "{error}",
    malformedActionTemplate: miniSweAgentFormatErrorTemplate,
    maxReprompts: miniSweAgentStepLimit,
    toolErrorSuffix: "",
  },
  budget: { maxSteps: miniSweAgentStepLimit, maxOutputChars: null },
  tools: { expose: ["bash"], macros: [] },
  verification: { enabled: false, prompt: "", maxChecks: 0 },
});

const toolCallingSystem = `You are a software engineer fixing an issue in a Python repository checked out in your working directory.
Use the tools to explore the code, reproduce the problem, edit the source and run the tests. Do not modify the tests.
When the fix is done, call submit; the changes you made are the patch that is graded.

Tools:
{tools}`;

/** A native tool-calling harness: bash, a file viewer/editor with str_replace, and submit. */
export const toolCallingPreset: HarnessConfig = parseHarnessConfig({
  schemaVersion: 1,
  id: "swegym-tool-calling-base",
  description:
    "Native tool calls: bash (the same subshell, 60 s limit and observation format as mini-swe-agent), " +
    "str_replace_editor (view, create, str_replace, insert) and submit (git add -A && git diff --cached is the patch); " +
    "the issue text as the task, 100 steps, a reply without a tool call re-prompted up to 3 times in a row.",
  prompt: {
    system: toolCallingSystem,
    taskTemplate:
      "<issue>\n{instruction}\n</issue>\n\nResolve the issue by changing the non-test source files.",
    hints: [],
    hintPlacement: "task",
    examples: [],
  },
  actionFormat: { kind: "tool-calls" },
  context: { keepLastTurns: null, truncateObservationChars: null, truncationMarker: "", pinTask: true },
  errorRecovery: {
    toolErrorTemplate: "{error}",
    malformedActionTemplate:
      "Your reply had no tool call ({reason}). Call one of the tools; call submit when you are done.",
    maxReprompts: 3,
    toolErrorSuffix: "",
  },
  budget: { maxSteps: 100, maxOutputChars: null },
  tools: { expose: ["bash", "str_replace_editor", "submit"], macros: [] },
  verification: { enabled: false, prompt: "", maxChecks: 0 },
});

/** The tool-calling preset with the hints text shown (SWE-bench's hints, where a dataset has them). */
export const toolCallingWithHintsPreset: HarnessConfig = parseHarnessConfig({
  ...toolCallingPreset,
  id: "swegym-tool-calling-hints",
  description: `${toolCallingPreset.description} The issue's hints_text follows the issue.`,
  prompt: {
    ...toolCallingPreset.prompt,
    taskTemplate:
      "<issue>\n{instruction}\n</issue>\n\n<hints>\n{metadata.hints_text}\n</hints>\n\nResolve the issue by changing the non-test source files.",
  },
});

/** The presets by name. */
export const sweGymPresets: Readonly<Record<string, HarnessConfig>> = {
  "mini-swe-agent": miniSweAgentPreset,
  "tool-calling": toolCallingPreset,
  "tool-calling-hints": toolCallingWithHintsPreset,
};
