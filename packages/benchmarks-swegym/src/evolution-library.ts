import type { EvolutionLibrary } from "@hs/spec";
import { sweGymHarnessCallLibrary } from "./harness-call-directions.js";

/** Texts and macros the evolution operators draw from, phrased for a repository-fixing agent. */
export const sweGymLibrary: EvolutionLibrary = {
  hints: [
    "Reproduce the problem with a short script before you change any code.",
    "Find where the behaviour in the issue is implemented with grep -rn before reading whole files.",
    "After editing, run the repository's tests with python3 -m pytest -q to check nothing else broke.",
    "Change the source, never the tests; keep the fix as small as the issue needs.",
    "Read the lines around the code you change: a wrong operator or boundary is often the whole bug.",
  ],
  toolErrorSuffixes: [
    "Read the output above, adjust the command and run it again.",
    "The command did not finish; run something smaller or with a time limit.",
  ],
  malformedActionTemplates: [
    "Reply with exactly one ```bash block holding one command ({reason}).",
    "No command was found ({reason}). Write a THOUGHT, then one ```bash block.",
  ],
  verificationPrompts: [
    "Before submitting, run the tests that cover the code you changed and check the issue's example now works. Submit again to confirm.",
  ],
  preludes: sweGymHarnessCallLibrary.preludes,
  followUps: sweGymHarnessCallLibrary.followUps,
  checkCalls: sweGymHarnessCallLibrary.checkCalls,
  stepBudgets: sweGymHarnessCallLibrary.stepBudgets,
  macros: [
    ...sweGymHarnessCallLibrary.macros,
    {
      name: "run_tests",
      description: "Run the repository's test suite quietly.",
      parameters: { type: "object", properties: {} },
      steps: [
        {
          tool: "bash",
          arguments: { command: "python3 -m pytest -q -p no:cacheprovider 2>&1 | tail -n 30" },
        },
      ],
    },
    {
      name: "search_code",
      description: "Search the repository's Python files for a pattern.",
      parameters: { type: "object", properties: { pattern: { type: "string" } }, required: ["pattern"] },
      steps: [
        { tool: "bash", arguments: { command: "grep -rn --include=*.py -e '{pattern}' . | head -n 50" } },
      ],
    },
  ],
  emptyResult: {
    pattern: "^<returncode>0</returncode>\\s*<output>\\s*</output>$",
    notes: ["The command printed nothing; check the path or the pattern before going on."],
  },
  fenceAliases: { bash: ["bash", "sh", "shell", "console"] },
};
