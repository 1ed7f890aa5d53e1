import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Duplex } from "node:stream";
import { fileURLToPath } from "node:url";
import {
  bubblewrapArguments,
  createWorkspaceCgroup,
  detectBubblewrap,
  joinCgroupCommand,
  killWorkspaceCgroup,
  removeWorkspaceCgroup,
  sandboxEnvironment,
  visibleInside,
  type WorkspaceCgroup,
} from "@hs/harness/sandbox";
import { EnvironmentError, InvalidInputError } from "@hs/spec";
import type { ApiOutcome } from "./call-api.js";

/** How agent code is isolated. */
export type SandboxMode = "bwrap" | "none";

/** Options of a Python shell. */
export interface PythonShellOptions {
  /** Answers one API call of the agent's `apis` object. */
  callApi: (app: string, api: string, args: Record<string, unknown>) => ApiOutcome;
  /**
   * `bwrap` (default when /usr/bin/bwrap exists): no capabilities (uid 65534 in a user namespace), only
   * system directories read-only, a private workspace, own /proc, no network.
   */
  sandbox?: SandboxMode;
  /** Python interpreter (default Debian's /usr/bin/python3 when present, else `python3`). */
  python?: string;
  /** Seconds one execute may run before the code is interrupted (default 10). */
  timeoutSeconds?: number;
  /** Characters of output kept per execute (default 50,000). */
  maxOutputChars?: number;
  /**
   * Bytes of memory of the shell and every process it starts, together (default 1 GiB): a memory
   * cgroup, else RLIMIT_AS of each process.
   */
  memoryBytes?: number;
  /** Processes the shell may hold at once, its own included (default 64): a pids cgroup, else RLIMIT_NPROC. */
  maxProcesses?: number;
  /** Host paths bound read-only into the sandbox (a Python outside /usr). */
  sandboxBinds?: readonly string[];
}

/** Grace after the in-shell timer before the shell process is killed and restarted. */
const hardKillGraceMs = 3000;
const shellScript = fileURLToPath(new URL("../../python/appworld_shell.py", import.meta.url));

/** Whether bubblewrap is installed. */
export function bwrapAvailable(): boolean {
  return existsSync("/usr/bin/bwrap");
}

function defaultPython(): string {
  return existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
}

/** The sandbox's read-only binds: the shell script's own directory (nothing else of the package) and the user's. */
function readOnlyBinds(options: { sandboxBinds?: readonly string[] }): string[] {
  return [dirname(shellScript), ...(options.sandboxBinds ?? [])];
}

function commandLine(
  options: { sandbox: SandboxMode; python: string; sandboxBinds?: readonly string[] },
  workspace: string,
): { file: string; args: string[] } {
  const pythonArgs = ["-I", "-u", shellScript];
  if (options.sandbox === "none") return { file: options.python, args: pythonArgs };
  const sandbox = { writable: [workspace], readOnly: readOnlyBinds(options), workingDirectory: workspace };
  const privileges = detectBubblewrap("/usr/bin/bwrap") ?? "capabilities-dropped";
  return {
    file: "/usr/bin/bwrap",
    args: [...bubblewrapArguments(sandbox, privileges), options.python, ...pythonArgs],
  };
}

/** A random token framing one execute's result, so a line agent code writes on the channel is not taken for it. */
function newNonce(): string {
  return randomBytes(16).toString("hex");
}

/**
 * A persistent Python shell for one episode, run as a subprocess (sandboxed with bubblewrap: the
 * file system is read-only except a private workspace, no network, its own pid namespace). Variables
 * live between `execute` calls. The agent's `apis` object talks to this process over an inherited
 * file descriptor (JSON lines), never over the network. A call that outlives the in-shell timer and
 * its grace is killed; the shell restarts empty and the output says so.
 */
export class PythonShell {
  private readonly options: Required<Omit<PythonShellOptions, "python" | "sandboxBinds">> & {
    python: string;
    sandboxBinds: readonly string[];
  };
  private process: ChildProcess | undefined;
  private cgroup: WorkspaceCgroup | undefined;
  private channel: Duplex | undefined;
  private buffer = "";
  private waiting: ((message: Record<string, unknown> | null) => void) | undefined;
  private workspace: string | undefined;
  private closed = false;

  constructor(options: PythonShellOptions) {
    this.options = {
      callApi: options.callApi,
      sandbox: options.sandbox ?? (bwrapAvailable() ? "bwrap" : "none"),
      python: options.python ?? defaultPython(),
      timeoutSeconds: options.timeoutSeconds ?? 10,
      maxOutputChars: options.maxOutputChars ?? 50_000,
      memoryBytes: options.memoryBytes ?? 1 << 30,
      maxProcesses: options.maxProcesses ?? 64,
      sandboxBinds: options.sandboxBinds ?? [],
    };
    const python = this.options.python;
    if (
      this.options.sandbox === "bwrap" &&
      python.startsWith("/") &&
      !visibleInside(python, { writable: [], readOnly: readOnlyBinds(this.options) })
    )
      throw new InvalidInputError(
        `the Python ${python} is not visible inside the sandbox (only /usr, /bin, /lib* and a part of /etc are); add its installation to sandboxBinds`,
        { field: "python" },
      );
  }

  /** Changes the per-call time limit (applies from the next execute). */
  setTimeoutSeconds(seconds: number): void {
    this.options.timeoutSeconds = seconds;
  }

  /** The sandbox in use. */
  get sandbox(): SandboxMode {
    return this.options.sandbox;
  }

  /** The episode's private workspace directory (the shell's working directory). */
  get workspacePath(): string | undefined {
    return this.workspace;
  }

  /** Starts the shell (again, after a kill). */
  async start(): Promise<void> {
    if (this.closed) throw new EnvironmentError("the Python shell is closed");
    this.workspace ??= await mkdtemp(join(tmpdir(), "hs-appworld-"));
    this.cgroup ??= createWorkspaceCgroup(`hs-appworld-${newNonce()}`, {
      maxProcesses: this.options.maxProcesses,
      memoryBytes: this.options.memoryBytes,
    });
    const inner = commandLine(this.options, this.workspace);
    const { file, args } =
      this.cgroup === undefined ? inner : joinCgroupCommand(this.cgroup, inner.file, inner.args);
    const child = spawn(file, args, {
      stdio: ["ignore", "ignore", "pipe", "pipe"],
      env: sandboxEnvironment({
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: this.workspace,
        ...this.rlimitFallback(),
      }),
      cwd: this.workspace,
    });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString("utf8");
    });
    const channel = child.stdio[3] as Duplex;
    channel.setEncoding("utf8");
    const current = () => this.process === child;
    channel.on("data", (chunk: string) => {
      if (current()) this.receive(chunk);
    });
    channel.on("error", () => {
      if (current()) this.deliver(null);
    });
    child.on("exit", () => {
      if (current()) this.deliver(null);
    });
    // An idle shell must not keep the process alive (a caller that forgets close() still exits, and
    // --die-with-parent ends the sandbox); a pending execute is kept alive by its own timer.
    child.unref();
    (channel as Duplex & { unref?: () => void }).unref?.();
    (child.stderr as (NodeJS.ReadableStream & { unref?: () => void }) | null)?.unref?.();
    this.process = child;
    this.channel = channel;
    this.buffer = "";
    const ready = await this.nextMessage(15_000);
    if (ready?.type !== "ready") {
      this.kill();
      throw new EnvironmentError(
        `the Python shell did not start (${file} ${args.slice(0, 3).join(" ")}...): ${stderr.trim() || "no output"}`,
      );
    }
  }

  /** Limits the shell sets on itself (rlimits) where the cgroup does not hold them. */
  private rlimitFallback(): Record<string, string> {
    const enforced = this.cgroup?.enforced;
    return {
      ...(enforced?.has("memory") === true
        ? {}
        : { APPWORLD_SHELL_MEMORY_BYTES: String(this.options.memoryBytes) }),
      ...(enforced?.has("processes") === true
        ? {}
        : { APPWORLD_SHELL_MAX_PROCESSES: String(this.options.maxProcesses) }),
    };
  }

  /**
   * Runs code and returns its output text (AppWorld's "Execution failed. Traceback: ..." on error).
   * Only a result carrying this call's fresh nonce ends the call: a result line agent code writes on
   * fd 3 without it is dropped, and a late result of an earlier call is never taken for this one.
   */
  async execute(code: string): Promise<string> {
    if (this.process === undefined) await this.start();
    const nonce = newNonce();
    this.send({
      type: "execute",
      nonce,
      code,
      timeout_seconds: this.options.timeoutSeconds,
      max_output_chars: this.options.maxOutputChars,
    });
    const deadline = Date.now() + this.options.timeoutSeconds * 1000 + hardKillGraceMs;
    for (;;) {
      const message = await this.nextMessage(Math.max(1, deadline - Date.now()));
      if (message === null) return await this.restartAfter("stopped responding or exited");
      if (message.type === "result" && message.nonce === nonce) return String(message.output);
      if (message.type === "api") this.answerApi(message);
    }
  }

  /** Stops the shell and removes its workspace. Safe to call twice. */
  async close(): Promise<void> {
    this.closed = true;
    this.kill();
    const cgroup = this.cgroup;
    this.cgroup = undefined;
    if (cgroup !== undefined) await removeWorkspaceCgroup(cgroup);
    if (this.workspace !== undefined) await rm(this.workspace, { recursive: true, force: true });
    this.workspace = undefined;
  }

  private answerApi(message: Record<string, unknown>): void {
    const args = message.arguments;
    const outcome = this.options.callApi(
      String(message.app),
      String(message.api),
      typeof args === "object" && args !== null && !Array.isArray(args)
        ? (args as Record<string, unknown>)
        : {},
    );
    this.send({ type: "api_result", id: message.id, ...outcome });
  }

  private async restartAfter(what: string): Promise<string> {
    this.kill();
    await this.start();
    return `Execution failed. Traceback:\nTimeoutError: the shell ${what} within ${this.options.timeoutSeconds} seconds and was restarted; variables defined before are lost.`;
  }

  private send(message: Record<string, unknown>): void {
    this.channel?.write(`${JSON.stringify(message)}\n`);
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    if (this.waiting !== undefined) this.deliverBuffered();
  }

  private deliverBuffered(): void {
    const newline = this.buffer.indexOf("\n");
    if (newline < 0) return;
    const line = this.buffer.slice(0, newline);
    this.buffer = this.buffer.slice(newline + 1);
    let message: Record<string, unknown> | null;
    try {
      message = JSON.parse(line) as Record<string, unknown>;
    } catch {
      message = { type: "noise" };
    }
    this.deliver(message);
  }

  private deliver(message: Record<string, unknown> | null): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(message);
  }

  private nextMessage(timeoutMs: number): Promise<Record<string, unknown> | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.deliver(null), timeoutMs);
      this.waiting = (message) => {
        clearTimeout(timer);
        resolve(message);
      };
      if (this.process?.exitCode !== null && this.process?.exitCode !== undefined) this.deliver(null);
      else this.deliverBuffered();
    });
  }

  private kill(): void {
    const child = this.process;
    this.process = undefined;
    this.channel?.destroy();
    this.channel = undefined;
    if (child !== undefined && child.exitCode === null) child.kill("SIGKILL");
    if (this.cgroup !== undefined) killWorkspaceCgroup(this.cgroup);
  }
}
