import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readlinkSync, realpathSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { preparedEtcDirectory } from "./prepared-etc.js";

/**
 * How bubblewrap can drop privileges here, strongest first:
 * - `user-namespace`: a new user namespace mapping uid/gid 65534 (nobody), every capability dropped and
 *   no further user namespace allowed (`--disable-userns`): even when `hs` runs as root, nothing inside
 *   can mount, unmount or enter another namespace.
 * - `user-namespace-nested`: the same, but this bwrap has no `--disable-userns` (before 0.8), so code
 *   inside can make a nested user namespace; its mounts are then locked and it holds no capability over
 *   the host's namespaces.
 * - `capabilities-dropped`: no user namespace can be made here; `--cap-drop ALL` alone (a root caller
 *   keeps uid 0 without capabilities).
 */
export type BubblewrapPrivileges = "user-namespace" | "user-namespace-nested" | "capabilities-dropped";

/** What a bubblewrap sandbox is built from. */
export interface BubblewrapSandboxV1 {
  /** Directories bound writable at the same path (the episode's workspace). */
  writable: readonly string[];
  /** Extra files or directories bound read-only at the same path (a user's Python, prebuilt tools). */
  readOnly?: readonly string[];
  /** Paths covered by an empty tmpfs where they fall inside a bound directory (a benchmark's data). */
  hidden?: readonly string[];
  /** The directory the command starts in. */
  workingDirectory: string;
}

/**
 * System directories bound read-only: what bash, git, coreutils and Python need. Never `/`, so the
 * repository, data directories, `/work`, `/root` and home directories are absent inside.
 */
export const systemDirectories = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] as const;

/**
 * The part of /etc bound read-only: users and groups, the dynamic linker, alternatives, time zone,
 * shell start-up, Python and TLS configuration. Left out on purpose: shadow files, `gitconfig` (it can
 * name credential helpers), `pip.conf` (index URLs can carry tokens), ssh, and everything else.
 */
export const etcFiles = [
  "/etc/passwd",
  "/etc/group",
  "/etc/nsswitch.conf",
  "/etc/hosts",
  "/etc/host.conf",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/alternatives",
  "/etc/localtime",
  "/etc/timezone",
  "/etc/bash.bashrc",
  "/etc/profile",
  "/etc/inputrc",
  "/etc/mime.types",
  "/etc/magic",
  "/etc/magic.mime",
  "/etc/protocols",
  "/etc/services",
  "/etc/os-release",
  "/etc/debian_version",
  "/etc/terminfo",
  "/etc/ssl",
  "/etc/ca-certificates",
  "/etc/python3",
  "/etc/python3.11",
  "/etc/python3.12",
  "/etc/python3.13",
] as const;

/**
 * The /etc part in one read-only mount of a prepared copy, else (no copy, or a writable directory that
 * would expose the copy to writes) one `--ro-bind` per entry.
 */
function etcMounts(writable: readonly string[]): string[] {
  const prepared = preparedEtcDirectory(etcFiles);
  const exposed = prepared !== null && writable.some((path) => isInside(prepared, realpathOr(path)));
  if (prepared !== null && !exposed) return ["--ro-bind", prepared, "/etc"];
  return etcFiles.filter((path) => existsSync(path)).flatMap((path) => ["--ro-bind", path, path]);
}

/** bwrap's namespace and privilege flags for each level. */
const privilegeFlags: Record<BubblewrapPrivileges, readonly string[]> = {
  "user-namespace": [
    "--unshare-user",
    "--uid",
    "65534",
    "--gid",
    "65534",
    "--disable-userns",
    "--cap-drop",
    "ALL",
  ],
  "user-namespace-nested": ["--unshare-user", "--uid", "65534", "--gid", "65534", "--cap-drop", "ALL"],
  "capabilities-dropped": ["--cap-drop", "ALL"],
};

/** Namespaces every sandbox gets: own pids (and /proc), no network, own IPC and host name, own session. */
const namespaceFlags = [
  "--unshare-pid",
  "--unshare-net",
  "--unshare-ipc",
  "--unshare-uts",
  "--unshare-cgroup-try",
  "--die-with-parent",
  "--new-session",
] as const;

/** True when `path` is `directory` or inside it. */
export function isInside(path: string, directory: string): boolean {
  const between = relative(directory, path);
  return between === "" || (!between.startsWith("..") && !isAbsolute(between));
}

/** `--ro-bind` for a directory, or `--symlink` when it is a symbolic link (merged /usr: /bin -> usr/bin). */
function systemMount(path: string): string[] {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return [];
  if (stat.isSymbolicLink()) return ["--symlink", readlinkSync(path), path];
  return ["--ro-bind", path, path];
}

/** Every directory or file bound read-only, as the host sees them (for visibility checks). */
export function readOnlyRoots(sandbox: Pick<BubblewrapSandboxV1, "readOnly">): string[] {
  const system = [...systemDirectories, ...etcFiles].filter((path) => existsSync(path));
  return [...system, ...(sandbox.readOnly ?? [])].map((path) => realpathOr(path));
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** Whether `path` (after following links) is visible inside a sandbox built from these binds. */
export function visibleInside(path: string, sandbox: Omit<BubblewrapSandboxV1, "workingDirectory">): boolean {
  const real = realpathOr(path);
  const roots = [...readOnlyRoots(sandbox), ...sandbox.writable.map(realpathOr)];
  return roots.some((root) => isInside(real, root));
}

/**
 * The bwrap arguments (before the command) of a sandbox: privileges dropped as `privileges` allows,
 * only system directories and a subset of /etc (one mount of a copy made once per process) read-only, `/tmp` and `/dev/shm` private tmpfs, the
 * writable directories bound on top, own /dev and /proc, the namespaces above.
 */
export function bubblewrapArguments(
  sandbox: BubblewrapSandboxV1,
  privileges: BubblewrapPrivileges,
): string[] {
  const bound = [...systemDirectories, ...(sandbox.readOnly ?? [])];
  const hidden = (sandbox.hidden ?? []).filter(
    (path) => existsSync(path) && bound.some((directory) => isInside(resolve(path), directory)),
  );
  return [
    ...privilegeFlags[privileges],
    ...namespaceFlags,
    ...systemDirectories.flatMap(systemMount),
    ...etcMounts(sandbox.writable),
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    "--tmpfs",
    "/dev/shm",
    ...(sandbox.readOnly ?? []).flatMap((path) => ["--ro-bind", path, path]),
    ...hidden.flatMap((path) => ["--tmpfs", path]),
    ...sandbox.writable.flatMap((path) => ["--bind", path, path]),
    // the root bwrap builds is a tmpfs holding the mount points: read-only, so nothing lands there
    "--remount-ro",
    "/",
    "--chdir",
    sandbox.workingDirectory,
  ];
}

const probed = new Map<string, BubblewrapPrivileges | null>();

/**
 * The strongest privilege level bwrap offers here (probed once per program path), or null when bwrap
 * is missing or cannot build the sandbox's namespaces.
 */
export function detectBubblewrap(program = "bwrap"): BubblewrapPrivileges | null {
  const known = probed.get(program);
  if (known !== undefined) return known;
  let found: BubblewrapPrivileges | null = null;
  for (const level of Object.keys(privilegeFlags) as BubblewrapPrivileges[]) {
    const args = bubblewrapArguments({ writable: [], workingDirectory: "/" }, level);
    const probe = spawnSync(program, [...args, "true"], { stdio: "ignore", timeout: 10_000 });
    if (probe.status === 0) {
      found = level;
      break;
    }
  }
  probed.set(program, found);
  return found;
}
