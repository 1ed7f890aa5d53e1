import type { ToolSpec } from "@hs/spec";

/** The tools of a SWE-Gym episode. `bash` alone is mini-swe-agent's protocol; all three are the tool-calling preset's. */
export const sweGymTools: readonly ToolSpec[] = [
  {
    name: "bash",
    description:
      "Run one bash command in a new subshell in the repository (60 s limit). To submit, run: " +
      "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached",
    parameters: {
      type: "object",
      properties: { command: { type: "string", description: "The command." } },
      required: ["command"],
    },
  },
  {
    name: "str_replace_editor",
    description:
      "View, create and edit files. `view` shows a file with line numbers (optionally `view_range` [first, last]); " +
      "`create` writes `file_text`; `str_replace` replaces `old_str`, which must occur exactly once, with `new_str`; " +
      "`insert` inserts `new_str` after line `insert_line`.",
    parameters: {
      type: "object",
      properties: {
        command: { type: "string", enum: ["view", "create", "str_replace", "insert"] },
        path: { type: "string" },
        file_text: { type: "string" },
        old_str: { type: "string" },
        new_str: { type: "string" },
        insert_line: { type: "integer" },
        view_range: { type: "array", items: { type: "integer" }, minItems: 2, maxItems: 2 },
      },
      required: ["command", "path"],
    },
  },
  {
    name: "submit",
    description:
      "Submit the changes made to the repository (git add -A && git diff --cached) and end the episode.",
    parameters: { type: "object", properties: {} },
    terminal: true,
  },
];
