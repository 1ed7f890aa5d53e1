import { EnvironmentError, type EnvironmentV1, type Grade, type ToolCall, type ToolResult } from "@hs/spec";
import { z } from "zod";
import type { SweInstance } from "../data/swe-instance.js";
import { runEvaluation, setupOption } from "../evaluation/run-evaluation.js";
import type { LogParser } from "../grading/log-parsers.js";
import type { Runtime, Workspace } from "../runtime/workspace.js";
import type { RepoSpec } from "../specs/spec-map.js";
import { type EditorArguments, runEditor } from "./file-editor.js";
import type { GradeCache } from "./grade-cache.js";
import { readSubmission, renderObservation, renderTimeout } from "./observation.js";
import type { ProgressReporter } from "./progress.js";
import { sweGymTools } from "./tools.js";

/** Settings of an episode. */
export interface EpisodeSettings {
  /** Where workspaces come from. */
  runtime: Runtime;
  /** The instance's spec. */
  spec: RepoSpec;
  /** The instance's log parser. */
  parser: LogParser;
  /** Milliseconds per agent command (mini-swe-agent: 60 s). */
  commandTimeLimitMs: number;
  /** Bytes of output kept per command. */
  maxOutputBytes: number;
  /** Milliseconds the grading run may take. */
  gradeTimeLimitMs: number;
  /** Conda environment of the runtime (null locally). */
  condaEnvironment: string | null;
  /** Verdicts shared by the benchmark's episodes (same instance and patch: no second run); none when absent. */
  gradeCache?: GradeCache;
  /** Per-episode progress lines; none when absent. */
  progress?: ProgressReporter;
}

let episodeCounter = 0;

const bashArguments = z.object({ command: z.string() });
const editorArguments = z.object({
  command: z.string(),
  path: z.string(),
  file_text: z.string().optional(),
  old_str: z.string().optional(),
  new_str: z.string().optional(),
  insert_line: z.number().int().optional(),
  view_range: z.tuple([z.number().int(), z.number().int()]).optional(),
});

const diffCommand = "git add -A && git diff --cached";

/**
 * One SWE-Gym episode: a fresh workspace at the base commit; `bash` runs each command in a new
 * subshell (`bash -c` locally as mini-swe-agent's LocalEnvironment, `bash -lc` in docker as its
 * DockerEnvironment); a command whose output starts with the
 * submit sentinel submits the rest of its output as the patch; grading applies the submitted patch in
 * another fresh workspace and runs SWE-bench's evaluation there. Reward = resolved.
 */
export class SweGymEnvironment implements EnvironmentV1 {
  readonly specificationVersion = "v1";
  readonly tools = sweGymTools;
  private workspace: Workspace | null = null;
  private submission: string | null = null;
  private closed = false;
  private readonly progressId: string;

  constructor(
    private readonly instance: SweInstance,
    private readonly settings: EpisodeSettings,
  ) {
    episodeCounter += 1;
    this.progressId = `${instance.instance_id}#${episodeCounter}`;
  }

  async reset(options: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.closed) throw new EnvironmentError("the environment is closed");
    await this.workspace?.close();
    this.submission = null;
    const began = Date.now();
    this.workspace = await this.settings.runtime.createWorkspace({
      instanceId: this.instance.instance_id,
      repo: this.instance.repo,
      baseCommit: this.instance.base_commit,
      ...setupOption(this.settings.spec),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    this.settings.progress?.start(
      this.progressId,
      `workspace in ${((Date.now() - began) / 1000).toFixed(1)} s, ${this.workspace.isolation}`,
    );
  }

  private current(): Workspace {
    if (this.workspace === null) throw new EnvironmentError("reset() the environment before stepping it");
    return this.workspace;
  }

  async step(call: ToolCall, options: { signal?: AbortSignal } = {}): Promise<ToolResult> {
    const began = Date.now();
    const result = await this.dispatch(call, options.signal);
    return { ...result, elapsedMs: Date.now() - began };
  }

  private async dispatch(call: ToolCall, signal: AbortSignal | undefined): Promise<ToolResult> {
    if (call.name === "bash") {
      const parsed = bashArguments.safeParse(call.arguments);
      if (!parsed.success) return { content: 'bash needs {"command": string}', isError: true, done: false };
      return this.runBash(parsed.data.command, signal);
    }
    if (call.name === "str_replace_editor") {
      const parsed = editorArguments.safeParse(call.arguments);
      if (!parsed.success)
        return { content: "str_replace_editor needs command and path", isError: true, done: false };
      const edited = await runEditor(this.current(), parsed.data as EditorArguments);
      return { ...edited, done: false };
    }
    if (call.name === "submit") {
      const run = await this.current().run(diffCommand, { timeLimitMs: this.settings.commandTimeLimitMs });
      this.submission = run.returncode === 0 ? run.output : "";
      return { content: "Submitted.", isError: false, done: true };
    }
    return { content: `unknown tool "${call.name}"`, isError: true, done: false };
  }

  private async runBash(command: string, signal: AbortSignal | undefined): Promise<ToolResult> {
    const shown = command.length > 60 ? `${command.slice(0, 57)}...` : command;
    this.settings.progress?.doing(this.progressId, `running ${JSON.stringify(shown)}`);
    const run = await this.current().run(command, {
      login: true,
      timeLimitMs: this.settings.commandTimeLimitMs,
      maxOutputBytes: this.settings.maxOutputBytes,
      ...(signal === undefined ? {} : { signal }),
    });
    if (run.timedOut) return { content: renderTimeout(command, run.output), isError: true, done: false };
    if (run.outputLimited) {
      const note = `\n[output passed ${this.settings.maxOutputBytes} bytes; the command was killed]`;
      return { content: renderObservation(-9, `${run.output}${note}`), isError: true, done: false };
    }
    const submission = readSubmission(run.output);
    if (submission !== null) {
      this.submission = submission;
      return { content: "Submitted.", isError: false, done: true };
    }
    return { content: renderObservation(run.returncode ?? -1, run.output), isError: false, done: false };
  }

  async grade(options: { signal?: AbortSignal } = {}): Promise<Grade> {
    this.settings.progress?.doing(this.progressId, "grading");
    const grade = await this.gradeSubmission(options.signal);
    const reason = grade.details?.failure_reason;
    const outcome = grade.success
      ? "resolved"
      : `not resolved: ${typeof reason === "string" ? reason : "no verdict"}`;
    this.settings.progress?.finish(this.progressId, outcome);
    return grade;
  }

  private async gradeSubmission(signal: AbortSignal | undefined): Promise<Grade> {
    const patch = this.submission ?? "";
    if (patch.trim() === "") return this.emptyPatchGrade();
    const cache = this.settings.gradeCache;
    if (cache === undefined) return this.evaluate(patch, signal);
    const grade = await cache.grade(this.instance.instance_id, patch, () => this.evaluate(patch, signal));
    return { ...grade, details: { ...grade.details, submitted: this.submission !== null } };
  }

  /**
   * An empty patch is not resolved and not run, as SWE-bench does not evaluate an empty prediction
   * (SWE-bench@v4.1.0 swebench/harness/run_evaluation.py `get_dataset_from_preds` leaves it out,
   * reporting.py counts it under `empty_patch_ids`).
   */
  private emptyPatchGrade(): Grade {
    return {
      reward: 0,
      success: false,
      details: {
        instance_id: this.instance.instance_id,
        submitted: this.submission !== null,
        patch_is_None: false,
        patch_exists: false,
        patch_successfully_applied: false,
        resolved: false,
        empty_patch: true,
        failure_reason: "empty patch: not evaluated (SWE-bench does not run an empty prediction)",
        timed_out: false,
        output_limited: false,
      },
    };
  }

  private async evaluate(patch: string, signal: AbortSignal | undefined): Promise<Grade> {
    const result = await runEvaluation({
      instance: this.instance,
      spec: this.settings.spec,
      parser: this.settings.parser,
      patch,
      runtime: this.settings.runtime,
      timeLimitMs: this.settings.gradeTimeLimitMs,
      condaEnvironment: this.settings.condaEnvironment,
      ...(signal === undefined ? {} : { signal }),
    });
    const resolved = result.report.resolved;
    return {
      reward: resolved ? 1 : 0,
      success: resolved,
      details: {
        instance_id: this.instance.instance_id,
        submitted: this.submission !== null,
        ...result.report,
        tests_status_map: result.statusMap,
        observed_status_map: result.observedStatusMap,
        failure_reason: result.failureReason,
        timed_out: result.timedOut,
        output_limited: result.outputLimited,
        log_tail: result.log.slice(-4000),
      },
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.settings.progress?.finish(this.progressId, "closed");
    await this.workspace?.close();
    this.workspace = null;
  }
}
