import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Limits of one workspace's processes, taken together. */
export interface WorkspaceLimitsV1 {
  /** Processes (and threads) alive at once. */
  maxProcesses: number;
  /** Bytes of memory (resident, page cache and tmpfs included) of all processes together. */
  memoryBytes: number;
}

/** A cgroup (v2) or a set of v1 cgroups holding one workspace's processes. */
export interface WorkspaceCgroup {
  /** `v2`, or `v1` (one directory per controller). */
  readonly version: "v1" | "v2";
  /** Each directory whose `cgroup.procs` a process joins. */
  readonly directories: readonly string[];
  /** Which limits hold: `processes` (pids.max), `memory` (memory.max / memory.limit_in_bytes). */
  readonly enforced: ReadonlySet<"processes" | "memory">;
}

const cgroupRoot = "/sys/fs/cgroup";

/** This process's cgroup path per v1 controller, and its v2 path under the key "". */
function ownCgroups(): Map<string, string> {
  const paths = new Map<string, string>();
  let text = "";
  try {
    text = readFileSync("/proc/self/cgroup", "utf8");
  } catch {
    return paths;
  }
  for (const line of text.split("\n")) {
    const [, controllers, path] = line.split(":");
    if (controllers === undefined || path === undefined) continue;
    for (const controller of controllers.split(",")) paths.set(controller, path);
  }
  return paths;
}

function tryWrite(file: string, value: string): boolean {
  try {
    writeFileSync(file, value);
    return true;
  } catch {
    return false;
  }
}

function makeDirectory(directory: string): boolean {
  try {
    mkdirSync(directory);
    return true;
  } catch {
    return false;
  }
}

function createV2(name: string, limits: WorkspaceLimitsV1, parentPath: string): WorkspaceCgroup | undefined {
  const parent = join(cgroupRoot, parentPath);
  const controllers = readFileSync(join(parent, "cgroup.controllers"), "utf8").split(/\s+/);
  if (!controllers.includes("pids") && !controllers.includes("memory")) return undefined;
  // one at a time: a controller the parent cannot delegate must not stop the other
  for (const controller of ["pids", "memory"])
    if (controllers.includes(controller)) tryWrite(join(parent, "cgroup.subtree_control"), `+${controller}`);
  const directory = join(parent, name);
  if (!makeDirectory(directory)) return undefined;
  const enforced = new Set<"processes" | "memory">();
  if (tryWrite(join(directory, "pids.max"), String(limits.maxProcesses))) enforced.add("processes");
  if (tryWrite(join(directory, "memory.max"), String(limits.memoryBytes))) {
    tryWrite(join(directory, "memory.swap.max"), "0");
    enforced.add("memory");
  }
  if (enforced.size === 0) {
    removeDirectory(directory);
    return undefined;
  }
  return { version: "v2", directories: [directory], enforced };
}

function createV1(
  name: string,
  limits: WorkspaceLimitsV1,
  own: Map<string, string>,
): WorkspaceCgroup | undefined {
  const directories: string[] = [];
  const enforced = new Set<"processes" | "memory">();
  const pids = join(cgroupRoot, "pids", own.get("pids") ?? "/", name);
  if (makeDirectory(pids)) {
    if (tryWrite(join(pids, "pids.max"), String(limits.maxProcesses))) {
      directories.push(pids);
      enforced.add("processes");
    } else removeDirectory(pids);
  }
  const memory = join(cgroupRoot, "memory", own.get("memory") ?? "/", name);
  if (makeDirectory(memory)) {
    if (tryWrite(join(memory, "memory.limit_in_bytes"), String(limits.memoryBytes))) {
      // without swap accounting the file is absent and RAM alone is limited (no swap on these machines)
      tryWrite(join(memory, "memory.memsw.limit_in_bytes"), String(limits.memoryBytes));
      directories.push(memory);
      enforced.add("memory");
    } else removeDirectory(memory);
  }
  return directories.length === 0 ? undefined : { version: "v1", directories, enforced };
}

/**
 * Creates the cgroup(s) of one workspace under this process's own cgroup, with `limits` written, where
 * the cgroup file system is writable here (v2 when mounted at /sys/fs/cgroup, else the v1 pids and
 * memory hierarchies); undefined when no limit could be set, so the caller falls back to rlimits.
 */
export function createWorkspaceCgroup(name: string, limits: WorkspaceLimitsV1): WorkspaceCgroup | undefined {
  const own = ownCgroups();
  try {
    if (existsSync(join(cgroupRoot, "cgroup.controllers"))) return createV2(name, limits, own.get("") ?? "/");
    return createV1(name, limits, own);
  } catch {
    return undefined;
  }
}

/** Every process id in the cgroup. */
function members(cgroup: WorkspaceCgroup): number[] {
  const pids: number[] = [];
  for (const directory of cgroup.directories) {
    try {
      const text = readFileSync(join(directory, "cgroup.procs"), "utf8");
      for (const line of text.split("\n")) if (line !== "") pids.push(Number(line));
    } catch {
      // removed already
    }
  }
  return pids;
}

/** Kills every process of the cgroup (processes that left the process group or session included). */
export function killWorkspaceCgroup(cgroup: WorkspaceCgroup): void {
  if (cgroup.version === "v2")
    for (const directory of cgroup.directories) tryWrite(join(directory, "cgroup.kill"), "1");
  for (const pid of members(cgroup)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

function removeDirectory(directory: string): boolean {
  try {
    rmdirSync(directory);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/**
 * Kills what is left in the cgroup and removes it, waiting (up to `waitMs`) for killed processes to
 * finish exiting, since a cgroup with exiting tasks cannot be removed yet. False if it is still there.
 */
export async function removeWorkspaceCgroup(cgroup: WorkspaceCgroup, waitMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    killWorkspaceCgroup(cgroup);
    if (cgroup.directories.map(removeDirectory).every(Boolean)) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * `program args` behind a `/bin/sh` that first moves itself into each of the cgroup's directories (so
 * every descendant is counted) and then execs the program; exit 125 when it cannot join.
 */
export function joinCgroupCommand(
  cgroup: WorkspaceCgroup,
  program: string,
  args: readonly string[],
): { file: string; args: string[] } {
  const script =
    'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1/cgroup.procs" || exit 125; shift; n=$((n-1)); done; exec "$@"';
  return {
    file: "/bin/sh",
    args: ["-c", script, "sh", String(cgroup.directories.length), ...cgroup.directories, program, ...args],
  };
}
