import type { ProcessLimits, ProcessResult } from "./run-process.js";
import type { WorkspaceSetup } from "./workspace-templates.js";

/** Options of one command in a workspace. */
export interface RunOptions extends Partial<ProcessLimits> {
  /** `bash -lc` (a login shell, as mini-swe-agent runs commands) instead of `bash -c`. */
  login?: boolean;
  /** Text on stdin. */
  input?: string;
  /** Cancels the command. */
  signal?: AbortSignal;
}

/** One episode's checkout of a repository at its base commit. */
export interface Workspace {
  /** The repository directory as commands see it (`/testbed` in docker). */
  readonly directory: string;
  /** What isolation is in force, in words (e.g. `bubblewrap` or `none`). */
  readonly isolation: string;
  /** Runs a bash command in the repository directory. */
  run(command: string, options?: RunOptions): Promise<ProcessResult>;
  /** Writes a file outside the repository (a patch, the eval script) and returns its path as commands see it. */
  writeScratchFile(name: string, content: string): Promise<string>;
  /** Removes the workspace; safe to call twice. */
  close(): Promise<void>;
}

/** What a runtime needs to check out an instance. */
export interface CheckoutRequest {
  /** The instance id (names containers and directories). */
  instanceId: string;
  /** `owner/name`. */
  repo: string;
  /** The commit to check out. */
  baseCommit: string;
  /** What is built into the checkout before anyone sees it (the spec's install; the local runtime only). */
  setup?: WorkspaceSetup;
  /** Cancels the checkout. */
  signal?: AbortSignal;
}

/** Creates fresh workspaces: one per episode and one per grading run. */
export interface Runtime {
  /** `local` or `docker`. */
  readonly id: string;
  /** Checks out an instance in a fresh workspace. Throws `EnvironmentError` when it cannot. */
  createWorkspace(request: CheckoutRequest): Promise<Workspace>;
}

/** Default limits of a command: mini-swe-agent's 60 s (config/extra/swebench.yaml `timeout`), 8 MiB of output. */
export const defaultCommandLimits: ProcessLimits = { timeLimitMs: 60_000, maxOutputBytes: 8 * 1024 * 1024 };
