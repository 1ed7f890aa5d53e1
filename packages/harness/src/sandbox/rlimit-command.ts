import type { WorkspaceLimitsV1 } from "./workspace-cgroup.js";

/**
 * `program args` behind bash's `ulimit`, for where no cgroup could be made: RLIMIT_NPROC (which the
 * kernel does not apply to uid 0, so it holds only for a non-root caller) and RLIMIT_AS per process
 * (an address-space cap of each process, not of the workspace together).
 */
export function rlimitCommand(
  limits: Partial<WorkspaceLimitsV1>,
  program: string,
  args: readonly string[],
): { file: string; args: string[] } {
  const settings: string[] = [];
  if (limits.maxProcesses !== undefined) settings.push(`ulimit -u ${Math.floor(limits.maxProcesses)}`);
  if (limits.memoryBytes !== undefined) settings.push(`ulimit -v ${Math.floor(limits.memoryBytes / 1024)}`);
  if (settings.length === 0) return { file: program, args: [...args] };
  return {
    file: "/bin/bash",
    args: ["--norc", "-c", `${settings.join(" && ")} && exec "$@"`, "bash", program, ...args],
  };
}
