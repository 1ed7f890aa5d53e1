import type { SweInstance } from "../data/swe-instance.js";
import { evalReport, evaluateLog, type InstanceReport } from "../grading/grade-log.js";
import type { LogParser, StatusMap } from "../grading/log-parsers.js";
import { logMarkers } from "../grading/markers.js";
import { defaultCommandLimits, type Runtime, type Workspace } from "../runtime/workspace.js";
import type { WorkspaceSetup } from "../runtime/workspace-templates.js";
import { type RepoSpec, workspaceSetup } from "../specs/spec-map.js";
import { evalScript, gitApplyCommands } from "./eval-script.js";
import { explainEvaluation, observedStatusMap } from "./explain-result.js";

/** What one evaluation needs. */
export interface EvaluationRequest {
  /** The instance (the grader's copy, with patches and test lists). */
  instance: SweInstance;
  /** Its repository-version spec. */
  spec: RepoSpec;
  /** Its log parser. */
  parser: LogParser;
  /** The model patch; empty means no change (the tests still run, so F2P can be seen failing). */
  patch: string;
  /** Where fresh workspaces come from. */
  runtime: Runtime;
  /** Milliseconds the eval script may run (SWE-bench's default `--timeout` is 1800 s). */
  timeLimitMs: number;
  /** Conda environment of the runtime (`testbed` in docker images; null locally). */
  condaEnvironment: string | null;
  /** Bytes of output the eval script may print (default 8 MiB, `defaultCommandLimits`). */
  maxOutputBytes?: number;
  /** Cancels the evaluation. */
  signal?: AbortSignal;
}

/** The outcome of an evaluation. */
export interface EvaluationResult {
  /** SWE-bench's per-instance report. */
  report: InstanceReport;
  /** Test id -> status as parsed (empty when the log was not usable). */
  statusMap: StatusMap;
  /** The full log: patch application, then the eval script's output. */
  log: string;
  /** The eval script hit its time limit. */
  timedOut: boolean;
  /** The eval script's output passed the output cap and the script was killed. */
  outputLimited: boolean;
  /** Test results printed after the start marker, read even from a cut or failed log (what really ran). */
  observedStatusMap: StatusMap;
  /** Why it did not resolve, in words (`explainEvaluation`); null when resolved. */
  failureReason: string | null;
  /** Milliseconds spent creating the workspace. */
  checkoutMs: number;
  /** Milliseconds spent applying the patch and running the eval script. */
  testMs: number;
}

async function applyPatch(workspace: Workspace, patch: string, signal?: AbortSignal): Promise<string> {
  const path = await workspace.writeScratchFile("patch.diff", patch);
  let last = "";
  for (const command of gitApplyCommands) {
    const result = await workspace.run(`${command} ${path}`, {
      timeLimitMs: 120_000,
      ...(signal === undefined ? {} : { signal }),
    });
    if (result.returncode === 0) return `${logMarkers.applyPatchPass}:\n${result.output}`;
    last = result.output;
  }
  return `${logMarkers.applyPatchFail}:\n${last}`;
}

/** `{setup}` of a checkout request when the spec builds something. */
export function setupOption(spec: RepoSpec): { setup?: WorkspaceSetup } {
  const setup = workspaceSetup(spec);
  return setup === undefined ? {} : { setup };
}

/**
 * Runs SWE-bench's evaluation of one patch in a fresh workspace (SWE-bench@v4.1.0
 * swebench/harness/run_evaluation.py `run_instance`): apply the patch by `GIT_APPLY_CMDS`, run the eval
 * script, grade the log. A timed-out run gets `>>>>> Tests Timed Out`, so it does not count (SWE-bench
 * raises there and writes no report). The workspace is removed in every case.
 */
export async function runEvaluation(request: EvaluationRequest): Promise<EvaluationResult> {
  const began = Date.now();
  const signalOption = request.signal === undefined ? {} : { signal: request.signal };
  const workspace = await request.runtime.createWorkspace({
    instanceId: request.instance.instance_id,
    repo: request.instance.repo,
    baseCommit: request.instance.base_commit,
    ...setupOption(request.spec),
    ...signalOption,
  });
  const checkoutMs = Date.now() - began;
  try {
    const parts: string[] = [];
    let timedOut = false;
    let outputLimited = false;
    const maxOutputBytes = request.maxOutputBytes ?? defaultCommandLimits.maxOutputBytes;
    if (request.patch.trim() !== "") parts.push(await applyPatch(workspace, request.patch, request.signal));
    if (!parts.some((part) => part.startsWith(logMarkers.applyPatchFail))) {
      const script = evalScript(request.instance, request.spec, {
        repoDirectory: workspace.directory,
        condaEnvironment: request.condaEnvironment,
      });
      const path = await workspace.writeScratchFile("eval.sh", script);
      const run = await workspace.run(`/bin/bash ${path}`, {
        timeLimitMs: request.timeLimitMs,
        maxOutputBytes,
        ...signalOption,
      });
      parts.push(run.output);
      outputLimited = run.outputLimited;
      if (run.timedOut) {
        timedOut = true;
        parts.push(
          `\n\nTimeout error: ${request.timeLimitMs / 1000} seconds exceeded.\n${logMarkers.testsTimeout}\n`,
        );
      }
      if (run.outputLimited)
        parts.push(`\n${logMarkers.testsError}: the test output passed its size limit\n`);
    }
    const log = parts.join("\n");
    const gold = { FAIL_TO_PASS: request.instance.FAIL_TO_PASS, PASS_TO_PASS: request.instance.PASS_TO_PASS };
    const report = evalReport(request.patch, log, request.parser, gold);
    const outcome = { report, log, timedOut, outputLimited };
    return {
      ...outcome,
      statusMap: evaluateLog(log, request.parser).statusMap,
      observedStatusMap: observedStatusMap(log, request.parser),
      failureReason: explainEvaluation(outcome, request.parser, {
        timeLimitMs: request.timeLimitMs,
        maxOutputBytes,
      }),
      checkoutMs,
      testMs: Date.now() - began - checkoutMs,
    };
  } finally {
    await workspace.close();
  }
}
