import { InvalidInputError } from "@hs/spec";
import { logMarkers } from "../grading/markers.js";
import type { RepoSpec } from "../specs/spec-map.js";
import { modifiedFiles, mypyCaseExpression, testDirectives } from "./test-directives.js";

/** SWE-bench's heredoc delimiter for the test patch. */
export const heredocDelimiter = "EOF_114329324912";

/**
 * How the model patch is applied, in order, the first that exits 0 wins (SWE-bench@v4.1.0
 * swebench/harness/run_evaluation.py `GIT_APPLY_CMDS`); the patch file is appended.
 */
export const gitApplyCommands = [
  "git apply --verbose",
  "git apply --verbose --reject",
  "patch --batch --fuzz=5 -p1 -i",
] as const;

/** Where the eval script runs. */
export interface EvalScriptContext {
  /** The repository directory (`/testbed` in the images, the workspace locally). */
  repoDirectory: string;
  /** Conda environment to activate (`testbed` in the images); null when there is none (local). */
  condaEnvironment: string | null;
}

/** What the eval script needs of an instance. */
export interface EvalInstance {
  /** `owner/name`. */
  repo: string;
  /** Commit the test files are reset to. */
  base_commit: string;
  /** The test patch. */
  test_patch: string;
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * A word of a command line: as it is when it holds only characters the shell takes literally, else
 * single-quoted. Test file names and case names come from the test patch; upstream pastes them in
 * bare (SWE-bench@v4.1.0 test_spec/python.py), so `$(...)` in a name would run.
 */
export function shellWord(text: string): string {
  return /^[\w./:@%+=,-]+$/.test(text) ? text : shellQuote(text);
}

/** Refuses a test patch whose lines would end the eval script's heredoc early (the rest would run). */
function checkHeredoc(testPatch: string): void {
  if (testPatch.split("\n").some((line) => line === heredocDelimiter))
    throw new InvalidInputError(`the test patch contains the heredoc delimiter line ${heredocDelimiter}`, {
      field: "test_patch",
    });
}

/** The test command: the spec's, plus the test files the patch touches (mypy: its `-k` case names). */
export function testCommand(instance: EvalInstance, spec: RepoSpec): string {
  if (instance.repo.toLowerCase() === "python/mypy") {
    return `${spec.test_cmd} ${shellQuote(mypyCaseExpression(instance.test_patch))}`;
  }
  return [spec.test_cmd, ...testDirectives(instance.test_patch).map(shellWord)].join(" ");
}

function activate(context: EvalScriptContext): string[] {
  if (context.condaEnvironment === null) return [];
  return ["source /opt/miniconda3/bin/activate", `conda activate ${context.condaEnvironment}`];
}

/**
 * The eval script, line for line as `make_eval_script_list_py` builds it (SWE-bench@v4.1.0
 * swebench/harness/test_spec/python.py) under `#!/bin/bash` and `set -uxo pipefail` (test_spec.py
 * `eval_script`): reset the test files, apply the test patch, run the test command between the
 * `: '>>>>> Start Test Output'` / `: '>>>>> End Test Output'` lines (xtrace prints them), reset again.
 * Without conda (local) the activation lines are left out.
 */
export function evalScript(instance: EvalInstance, spec: RepoSpec, context: EvalScriptContext): string {
  const directory = context.repoDirectory;
  const files = modifiedFiles(instance.test_patch);
  checkHeredoc(instance.test_patch);
  const reset = `git checkout ${shellWord(instance.base_commit)} ${files.map(shellWord).join(" ")}`;
  const applyTestPatch = `git apply -v - <<'${heredocDelimiter}'\n${instance.test_patch}\n${heredocDelimiter}`;
  const lines = [
    ...activate(context),
    `cd ${shellQuote(directory)}`,
    ...(spec.eval_commands ?? []),
    `git config --global --add safe.directory ${shellQuote(directory)}`,
    `cd ${shellQuote(directory)}`,
    "git status",
    "git show",
    `git -c core.fileMode=false diff ${instance.base_commit}`,
    ...activate(context),
    ...(spec.install === undefined ? [] : [spec.install]),
    reset,
    applyTestPatch,
    `: '${logMarkers.startTestOutput}'`,
    testCommand(instance, spec),
    `: '${logMarkers.endTestOutput}'`,
    reset,
  ];
  return `${["#!/bin/bash", "set -uxo pipefail", ...lines].join("\n")}\n`;
}
