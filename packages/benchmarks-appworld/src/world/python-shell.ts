import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Duplex } from "node:stream";
import { fileURLToPath } from "node:url";
import { EnvironmentError } from "@hs/harness";
import type { ApiOutcome } from "./call-api.js";

/** How agent code is isolated. */
export type SandboxMode = "bwrap" | "none";

/** Options of a Python shell. */
export interface PythonShellOptions {
  /** Answers one API call of the agent's `apis` object. */
  callApi: (app: string, api: string, args: Record<string, unknown>) => ApiOutcome;
  /** `bwrap` (default when /usr/bin/bwrap exists): read-only root, private workspace, no network. */
  sandbox?: SandboxMode;
  /** Python interpreter (default Debian's /usr/bin/python3 when present, else `python3`). */
  python?: string;
  /** Seconds one execute may run before the code is interrupted (default 10). */
  timeoutSeconds?: number;
  /** Characters of output kept per execute (default 50,000). */
  maxOutputChars?: number;
  /** Address-space limit of the shell in bytes (default 1 GiB). */
  memoryBytes?: number;
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

function commandLine(
  sandbox: SandboxMode,
  python: string,
  workspace: string,
): { file: string; args: string[] } {
  const pythonArgs = ["-I", "-u", shellScript];
  if (sandbox === "none") return { file: python, args: pythonArgs };
  return {
    file: "/usr/bin/bwrap",
    args: [
      "--ro-bind",
      "/",
      "/",
      "--tmpfs",
      "/tmp",
      // The shell script again, read-only, in case the package is installed under /tmp (an npm project
      // there): the tmpfs above would hide it.
      "--ro-bind",
      dirname(shellScript),
      dirname(shellScript),
      "--bind",
      workspace,
      workspace,
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--unshare-net",
      "--unshare-pid",
      "--die-with-parent",
      "--chdir",
      workspace,
      python,
      ...pythonArgs,
    ],
  };
}

/**
 * A persistent Python shell for one episode, run as a subprocess (sandboxed with bubblewrap: the
 * file system is read-only except a private workspace, no network, its own pid namespace). Variables
 * live between `execute` calls. The agent's `apis` object talks to this process over an inherited
 * file descriptor (JSON lines), never over the network. A call that outlives the in-shell timer and
 * its grace is killed; the shell restarts empty and the output says so.
 */
export class PythonShell {
  private readonly options: Required<Omit<PythonShellOptions, "python">> & { python: string };
  private process: ChildProcess | undefined;
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
    };
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
    const { file, args } = commandLine(this.options.sandbox, this.options.python, this.workspace);
    const child = spawn(file, args, {
      stdio: ["ignore", "ignore", "pipe", "pipe"],
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        APPWORLD_SHELL_MEMORY_BYTES: String(this.options.memoryBytes),
        HOME: this.workspace,
      },
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

  /** Runs code and returns its output text (AppWorld's "Execution failed. Traceback: ..." on error). */
  async execute(code: string): Promise<string> {
    if (this.process === undefined) await this.start();
    this.send({
      type: "execute",
      code,
      timeout_seconds: this.options.timeoutSeconds,
      max_output_chars: this.options.maxOutputChars,
    });
    const deadline = Date.now() + this.options.timeoutSeconds * 1000 + hardKillGraceMs;
    for (;;) {
      const message = await this.nextMessage(Math.max(1, deadline - Date.now()));
      if (message === null) return await this.restartAfter("stopped responding or exited");
      if (message.type === "result") return String(message.output);
      if (message.type === "api") this.answerApi(message);
    }
  }

  /** Stops the shell and removes its workspace. Safe to call twice. */
  async close(): Promise<void> {
    this.closed = true;
    this.kill();
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
  }
}
