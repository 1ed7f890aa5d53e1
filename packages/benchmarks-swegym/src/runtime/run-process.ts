import { spawn } from "node:child_process";
import { joinCgroupCommand, killWorkspaceCgroup, type WorkspaceCgroup } from "@hs/harness/sandbox";

/** Limits of one command. */
export interface ProcessLimits {
  /** Milliseconds before the whole process tree is killed. */
  timeLimitMs: number;
  /** Bytes of combined stdout/stderr kept; past them the tree is killed. */
  maxOutputBytes: number;
}

/** What one command did. */
export interface ProcessResult {
  /** Combined stdout and stderr, decoded as UTF-8 with invalid bytes replaced (U+FFFD). */
  output: string;
  /** Exit code; null when killed by a signal (a time or output limit). */
  returncode: number | null;
  /** The time limit was hit and the tree killed. */
  timedOut: boolean;
  /** The output limit was hit and the tree killed. */
  outputLimited: boolean;
  /** Wall time in milliseconds. */
  elapsedMs: number;
}

/** How to start a command. */
export interface ProcessOptions extends ProcessLimits {
  /** Working directory of the spawned program (outside any sandbox). */
  cwd: string;
  /** Environment. */
  env: NodeJS.ProcessEnv;
  /** Text written to stdin, then closed. */
  input?: string;
  /** The workspace cgroup the process joins before it runs, when one is in use. */
  cgroup?: WorkspaceCgroup;
  /** Cancels the command (the tree is killed). */
  signal?: AbortSignal;
}

function killTree(pid: number | undefined, cgroup: WorkspaceCgroup | undefined): void {
  if (pid !== undefined) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // the group is gone
    }
  }
  if (cgroup !== undefined) killWorkspaceCgroup(cgroup);
}

/**
 * Runs a program in its own process group and kills the whole group (and the cgroup, when one is
 * given) at the time limit, at the output limit, or on abort. The program gets a `/bin/sh` in front
 * that joins the cgroup and execs it when a cgroup is given, so every descendant is counted by it.
 */
export function runProcess(
  program: string,
  args: readonly string[],
  options: ProcessOptions,
): Promise<ProcessResult> {
  const started = Date.now();
  const { file, args: argv } =
    options.cgroup === undefined
      ? { file: program, args: [...args] }
      : joinCgroupCommand(options.cgroup, program, args);
  return new Promise((resolve) => {
    const child = spawn(file, argv, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const chunks: Buffer[] = [];
    let kept = 0;
    let timedOut = false;
    let outputLimited = false;
    const stop = () => killTree(child.pid, options.cgroup);
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeLimitMs);
    const onAbort = () => stop();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const collect = (chunk: Buffer) => {
      if (outputLimited) return;
      const room = options.maxOutputBytes - kept;
      chunks.push(chunk.length <= room ? chunk : chunk.subarray(0, room));
      kept += Math.min(chunk.length, room);
      if (chunk.length > room) {
        outputLimited = true;
        stop();
      }
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.stdin.on("error", () => {});
    child.stdin.end(options.input ?? "");
    const finish = (returncode: number | null) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      // Descendants that kept the pipes open are killed with the group.
      stop();
      resolve({
        output: new TextDecoder("utf-8").decode(Buffer.concat(chunks)),
        returncode: timedOut || outputLimited ? null : returncode,
        timedOut,
        outputLimited,
        elapsedMs: Date.now() - started,
      });
    };
    child.on("error", (error) => {
      chunks.push(Buffer.from(`${error.message}\n`));
      finish(127);
    });
    child.on("close", (code) => finish(code));
  });
}
