import {
  detectBubblewrap,
  bubblewrapArguments as sandboxArguments,
  visibleInside,
  type WorkspaceLimitsV1,
} from "@hs/harness/sandbox";

/**
 * What the local runtime can enforce here:
 * - `bubblewrap`: no capabilities (a user namespace as uid 65534 where one can be made, else `--cap-drop
 *   ALL`), only system directories read-only, the episode directory writable, private /tmp, own /proc
 *   and pid namespace, no network; a clean environment; per-workspace cgroup limits (or rlimits).
 * - `none`: bwrap is missing or cannot create namespaces here; commands run as plain subprocesses in
 *   the workspace, which can write wherever the user can and reach the network. The clean
 *   environment, a workspace-local HOME, time, output and process limits still hold.
 */
export type IsolationLevel = "bubblewrap" | "none";

/** Whether `bwrap` runs here with the namespaces the sandbox needs (probed once per process). */
export function detectIsolation(): IsolationLevel {
  return detectBubblewrap() === null ? "none" : "bubblewrap";
}

/** What the sandbox of one workspace's commands is made of. */
export interface WorkspaceSandbox {
  /** The episode directory (repository, scratch files, HOME), bound writable. */
  episodeDirectory: string;
  /** Where commands start (the repository). */
  workingDirectory: string;
  /** Paths covered by an empty tmpfs where they fall inside a bound directory (the benchmark's data). */
  hiddenPaths?: readonly string[];
  /** The user's extra read-only binds (`--sandbox-bind`). */
  readOnlyBinds?: readonly string[];
}

/** Per-workspace limits by default: 256 processes and 2 GiB for the workspace's processes together. */
export const defaultWorkspaceLimits: WorkspaceLimitsV1 = { maxProcesses: 256, memoryBytes: 2 * 1024 ** 3 };

/** The bwrap arguments (before the command) of a workspace's sandbox. */
export function bubblewrapArguments(sandbox: WorkspaceSandbox): string[] {
  return sandboxArguments(
    {
      writable: [sandbox.episodeDirectory],
      readOnly: sandbox.readOnlyBinds ?? [],
      hidden: sandbox.hiddenPaths ?? [],
      workingDirectory: sandbox.workingDirectory,
    },
    detectBubblewrap() ?? "capabilities-dropped",
  );
}

/** Whether a host path (a `--python`) can be seen inside the sandbox with these extra binds. */
export function visibleInSandbox(path: string, readOnlyBinds: readonly string[]): boolean {
  return visibleInside(path, { writable: [], readOnly: readOnlyBinds });
}
