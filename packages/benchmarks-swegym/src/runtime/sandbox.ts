import { spawnSync } from "node:child_process";
import { mkdirSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * What the local runtime can enforce here:
 * - `bubblewrap`: the root file system read-only, the workspace (and a private /tmp) writable, no
 *   network, a private process namespace that dies with its parent.
 * - `none`: bwrap is missing or cannot create namespaces here; commands run as plain subprocesses in
 *   the workspace, which can write wherever the user can and reach the network. Time and output limits
 *   and the process-group kill still hold.
 */
export type IsolationLevel = "bubblewrap" | "none";

let probed: IsolationLevel | undefined;

/** Whether `bwrap` runs here with the namespaces the sandbox needs (probed once per process). */
export function detectIsolation(): IsolationLevel {
  if (probed !== undefined) return probed;
  const probe = spawnSync(
    "bwrap",
    [
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--unshare-net",
      "--unshare-pid",
      "--die-with-parent",
      "true",
    ],
    { stdio: "ignore", timeout: 10_000 },
  );
  probed = probe.status === 0 ? "bubblewrap" : "none";
  return probed;
}

/**
 * The bwrap command line around `bash -c`/`bash -lc COMMAND` for a workspace: read-only root, a
 * private /tmp, an empty tmpfs over each hidden path, the episode directory bound writable on top, /dev and /proc, no network, own pid
 * namespace, dies with its parent, starting in the workspace.
 */
export function bubblewrapArguments(
  episodeDirectory: string,
  workingDirectory: string,
  hiddenPaths: readonly string[] = [],
): string[] {
  return [
    "--ro-bind",
    "/",
    "/",
    "--tmpfs",
    "/tmp",
    ...hiddenPaths.flatMap((path) => ["--tmpfs", path]),
    "--bind",
    episodeDirectory,
    episodeDirectory,
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--unshare-net",
    "--unshare-pid",
    "--die-with-parent",
    "--chdir",
    workingDirectory,
  ];
}

const pidsRoot = "/sys/fs/cgroup/pids";

/**
 * Creates a v1 pids cgroup capping the processes of one workspace (a fork bomb stops at the cap), when
 * the pids controller is writable here; returns its directory or undefined. Root ignores RLIMIT_NPROC,
 * so this is the cap that holds for root.
 */
export function createPidsCgroup(name: string, maxProcesses: number): string | undefined {
  const directory = join(pidsRoot, name);
  try {
    mkdirSync(directory);
  } catch {
    return undefined;
  }
  try {
    writeFileSync(join(directory, "pids.max"), String(maxProcesses));
    return directory;
  } catch {
    removePidsCgroup(directory);
    return undefined;
  }
}

/** Removes a pids cgroup; false while it still has processes (or cannot be removed). */
export function removePidsCgroup(directory: string): boolean {
  try {
    rmdirSync(directory);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/**
 * Kills what is left in a pids cgroup and removes it, waiting (up to `waitMs`) for killed processes to
 * finish exiting, since a cgroup with exiting tasks cannot be removed yet.
 */
export async function drainPidsCgroup(
  directory: string,
  kill: (directory: string) => void,
  waitMs = 5_000,
): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    kill(directory);
    if (removePidsCgroup(directory)) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
