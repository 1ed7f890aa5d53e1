import type { EvolutionLibrary } from "@hs/spec";
import { rankedTraceCommand } from "./statement/ranked-trace.js";
import { traceBeforeAfterCommand, traceStatementCommand } from "./statement/statement-trace.js";
import { valuesTraceCommand } from "./statement/values-trace.js";

/** mini-swe-agent's submission marker: a bash command holding it submits (swebench.yaml). */
export const submissionMarker = "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT";

/** The test run a harness call makes: stops at the first failure, short tracebacks with file and line, 20 s at most. */
export const harnessTestCommand =
  "{ timeout 20 python3 -m pytest -x -q -p no:cacheprovider --tb=short 2>&1; [ $? -ne 124 ] || echo 'the test run timed out'; } | tail -n 60";

/** The last `path.py:LINE: ` frame of a pytest `--tb=short` traceback (the line the failure points at). */
export const lastFramePattern = "[\\s\\S]*\\n(?<file>[\\w./-]+\\.py):(?<line>\\d+): ";

/** Lines around `{line}` of `{file}`, numbered (the prompt's own "nl -ba | sed -n" way of viewing a file). */
const showAroundLine = "nl -ba '{file}' | sed -n \"$(( {line} > 8 ? {line} - 8 : 1 )),$(( {line} + 8 ))p\"";

/** The trace of the statement's calls (`metadata.statementCalls`, read from the statement's text alone). */
export const harnessTraceCommand = traceStatementCommand("{metadata.statementCalls}");

/** The statement's calls before and after the working tree's changes, the after one traced. */
export const harnessTraceCheckCommand = traceBeforeAfterCommand("{metadata.statementCalls}");

/** The statement's calls traced, with the module-level values they read (`values-trace.ts`). */
export const harnessValuesTraceCommand = valuesTraceCommand("{metadata.statementCalls}");

/** The statement's calls' outcomes and the module-level values they read, without the executed lines. */
export const harnessValuesOnlyCommand = valuesTraceCommand("{metadata.statementCalls}", false);

/** The statement's calls traced, their executed lines ranked against the repository's own tests (`ranked-trace.ts`). */
export const harnessRankedTraceCommand = rankedTraceCommand("{metadata.statementCalls}");

/**
 * A probe's output (the SWE-Gym grammar's `probed F:N with K rewrites`) in which no rewrite gave a call
 * a value: every rewrite kept the original's results or raised, so the lines probed are not where the
 * calls' values come from.
 */
export const fruitlessProbePattern =
  "(?<![\\s\\S])(?![\\s\\S]*^rewrite: [^\\n]*\\n {2}\\[\\d+\\] =>)[\\s\\S]*^probed \\S+:\\d+ with ";

/**
 * Directions that change what the policy sees and can do on SWE-Gym: the harness runs the calls the
 * problem statement writes under a line tracer (the repository tests pass at the base commit, since the
 * failing tests come only with the grader's test patch, so a test run shows nothing to fix; the
 * statement's own calls do), opens the lines a traceback names, names the line an edit broke and a
 * collection error, and runs the statement's calls and the tests before a submit, each shown as
 * `[harness ran bash: ...]` and recorded as a harness call.
 */
export const sweGymHarnessCallLibrary: Required<
  Pick<EvolutionLibrary, "preludes" | "followUps" | "checkCalls" | "macros" | "stepBudgets">
> = {
  preludes: [
    {
      header:
        "Before you start, the harness ran the calls the issue writes under a line tracer (each call's value or traceback, then the repository lines they executed):",
      calls: [{ tool: "bash", arguments: { command: harnessTraceCommand } }],
    },
    {
      header:
        "Before you start, the harness ran the calls the issue writes under a line tracer and the repository's tests (each call's value or traceback, then the lines the calls executed that the passing tests execute least, the likeliest place of the bug):",
      calls: [{ tool: "bash", arguments: { command: harnessRankedTraceCommand } }],
    },
    {
      header:
        "Before you start, the harness ran the calls the issue writes under a line tracer (each call's value or traceback, the repository lines they executed, then the module-level values they read: tables and constants built when a module is imported):",
      calls: [{ tool: "bash", arguments: { command: harnessValuesTraceCommand } }],
    },
    {
      header:
        "Before you start, the harness ran the calls the issue writes (each call's value or traceback) and listed the module-level values they read (tables and constants built when a module is imported):",
      calls: [{ tool: "bash", arguments: { command: harnessValuesOnlyCommand } }],
    },
  ],
  followUps: [
    {
      tools: ["bash"],
      resultPattern: "\\n(?:E\\s|FAILED |[\\w./-]+\\.py:\\d+: )",
      resultFlags: "",
      capture: { source: "result", pattern: lastFramePattern, flags: "" },
      note: "The traceback ends at {file}:{line}; the harness opened those lines:",
      calls: [{ tool: "bash", arguments: { command: showAroundLine } }],
      maxPerEpisode: 3,
    },
    {
      tools: ["bash"],
      resultPattern: "Traceback \\(most recent call last\\)",
      resultFlags: "",
      capture: {
        source: "result",
        pattern: '[\\s\\S]*File "(?<file>(?!/)[^"]+\\.py)", line (?<line>\\d+)',
        flags: "",
      },
      note: "The Python traceback ends at {file}:{line}; the harness opened those lines:",
      calls: [{ tool: "bash", arguments: { command: showAroundLine } }],
      maxPerEpisode: 3,
    },
    {
      tools: ["bash"],
      resultPattern: "ERROR collecting|errors? during collection|ImportError while importing",
      resultFlags: "",
      capture: {
        source: "result",
        pattern:
          "(?<cause>(?:SyntaxError|IndentationError|ImportError|ModuleNotFoundError|NameError)\\b[^\\n]*)",
        flags: "",
      },
      note: "The tests could not be collected ({cause}): a file no longer imports, most likely the last edit. The harness showed what changed:",
      calls: [{ tool: "bash", arguments: { command: "git diff | head -n 60" } }],
      maxPerEpisode: 2,
    },
    {
      tools: ["bash"],
      resultPattern: "(?:SyntaxError|IndentationError|TabError)\\b",
      resultFlags: "",
      capture: {
        source: "result",
        pattern:
          '[\\s\\S]*File "(?<file>[^"]+\\.py)", line (?<line>\\d+)[^\\n]*(?:\\n[^\\n]*){0,4}?\\n[^\\n]*?(?<cause>SyntaxError|IndentationError|TabError)',
        flags: "",
      },
      note: "The file no longer parses ({cause} at {file}:{line}), most likely the last edit; the harness opened those lines:",
      calls: [{ tool: "bash", arguments: { command: showAroundLine } }],
      maxPerEpisode: 2,
    },
    {
      tools: ["bash"],
      resultPattern: "^edited [\\w./-]+\\.py:\\d+: |has been edited\\.",
      resultFlags: "m",
      note: "After the edit, the harness ran the calls the issue writes again:",
      calls: [{ tool: "bash", arguments: { command: harnessTraceCommand } }],
      maxPerEpisode: 3,
    },
    {
      tools: ["bash"],
      resultPattern: fruitlessProbePattern,
      resultFlags: "m",
      note: "No rewrite of the probed lines changed what the issue's calls give, so the bug is elsewhere. The harness ranked the lines the calls execute against the repository's tests (those the passing tests execute least first):",
      calls: [{ tool: "bash", arguments: { command: harnessRankedTraceCommand } }],
      maxPerEpisode: 1,
    },
    {
      tools: ["bash"],
      resultPattern: fruitlessProbePattern,
      resultFlags: "m",
      note: "Three probes found no rewrite that changes what the issue's calls give, so the bug may be in a value built when a module is imported. The harness ran the calls again with the module-level values they read:",
      calls: [{ tool: "bash", arguments: { command: harnessValuesTraceCommand } }],
      maxPerEpisode: 1,
      fromMatch: 3,
    },
  ],
  checkCalls: [
    {
      prompt:
        "Before submitting, the harness ran the calls the issue writes on your changes and on the checked-out version (below). Submit again to confirm, or fix what still gives the issue's wrong value.",
      calls: { calls: [{ tool: "bash", arguments: { command: harnessTraceCheckCommand } }] },
      submitMatch: { tool: "bash", argument: "command", pattern: submissionMarker, flags: "" },
    },
    {
      prompt:
        "Before submitting, the harness ran the tests (below). Submit again to confirm, or fix what still fails.",
      calls: { calls: [{ tool: "bash", arguments: { command: harnessTestCommand } }] },
      submitMatch: { tool: "bash", argument: "command", pattern: submissionMarker, flags: "" },
    },
    {
      prompt:
        "Before submitting, the harness ran the calls the issue writes on the working tree and ranked the lines they execute against the repository's tests (below; those the passing tests execute least first). Submit again to confirm, or look at the lines ranked first if the calls still give the issue's wrong value.",
      calls: { calls: [{ tool: "bash", arguments: { command: harnessRankedTraceCommand } }] },
      submitMatch: { tool: "bash", argument: "command", pattern: submissionMarker, flags: "" },
    },
    {
      prompt:
        "Before submitting, the harness ran the calls the issue writes on the working tree with the module-level values they read (below; tables and constants built at import). Submit again to confirm, or fix what still gives the issue's wrong value.",
      calls: { calls: [{ tool: "bash", arguments: { command: harnessValuesTraceCommand } }] },
      submitMatch: { tool: "bash", argument: "command", pattern: submissionMarker, flags: "" },
    },
  ],
  macros: [
    {
      name: "trace_statement",
      description:
        "Run the calls the issue writes under a line tracer: each call's value or traceback, then the repository lines they executed.",
      parameters: { type: "object", properties: {} },
      steps: [{ tool: "bash", arguments: { command: harnessTraceCommand } }],
    },
    {
      name: "run_failing_tests",
      description: "Run the tests until the first failure and show its traceback with file and line.",
      parameters: { type: "object", properties: {} },
      steps: [{ tool: "bash", arguments: { command: harnessTestCommand } }],
    },
    {
      name: "show_lines",
      description: "Show the numbered lines around one line of a file.",
      parameters: {
        type: "object",
        properties: { file: { type: "string" }, line: { type: "integer" } },
        required: ["file", "line"],
      },
      steps: [{ tool: "bash", arguments: { command: showAroundLine } }],
    },
  ],
  stepBudgets: [40, 80],
};
