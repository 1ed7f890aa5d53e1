import type { SandboxCommandRunner } from "../runtime/command-runner.js";
import type { Workspace } from "../runtime/workspace.js";
import type { createTinyMirror } from "./tiny-repo.js";

/** The workspace request of the tiny mirror's one instance. */
export function tinyRequest(fixture: ReturnType<typeof createTinyMirror>) {
  return {
    instanceId: fixture.instance.instance_id,
    repo: fixture.instance.repo,
    baseCommit: fixture.instance.base_commit,
  };
}

/** The command runner a local workspace keeps (undefined where each command gets its own sandbox). */
export const runnerOf = (workspace: Workspace) =>
  (workspace as unknown as { runner?: SandboxCommandRunner }).runner;

/** Prints the name of every process the command sees besides the runner (pid 1) and its own shell. */
export const otherProcesses =
  "for p in /proc/[0-9]*; do n=$(basename $p); [ $n = 1 ] || [ $n = $$ ] || cat $p/comm; done";
