import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { joinCgroupCommand, killWorkspaceCgroup, type WorkspaceCgroup } from "@hs/harness/sandbox";
import type { ProcessLimits, ProcessResult } from "./run-process.js";

const runnerScript = fileURLToPath(new URL("../../python/command_runner.py", import.meta.url));

/** Milliseconds past a command's time limit (or an abort) before the runner itself is killed. */
export const runnerGraceMs = 2_000;
/** Milliseconds the runner has to say it is ready. */
const startTimeLimitMs = 10_000;

/** How the runner's sandbox is started. */
export interface CommandRunnerStart {
  /** bwrap's arguments before the program (the workspace's sandbox). */
  sandboxArguments: readonly string[];
  /** The Python the runner runs with, inside the sandbox. */
  python: string;
  /** Working directory of the bwrap process (outside the sandbox). */
  cwd: string;
  /** The runner's own environment (each command gets its own). */
  env: NodeJS.ProcessEnv;
  /** The workspace cgroup the runner (and so every command) joins, when one is in use. */
  cgroup?: WorkspaceCgroup;
}

/** One command for the runner. */
export interface RunnerCommand extends ProcessLimits {
  /** Program and arguments, as they would follow bwrap's arguments. */
  argv: readonly string[];
  /** Where the command starts, as the sandbox sees it. */
  cwd: string;
  /** The command's whole environment. */
  env: NodeJS.ProcessEnv;
  /** Text on stdin, then end of file. */
  input?: string;
  /** Cuts the command. */
  signal?: AbortSignal;
}

interface Pending {
  chunks: Buffer[];
  kept: number;
  maxOutputBytes: number;
  finish(exit: {
    returncode?: number | null;
    timedOut?: boolean;
    outputLimited?: boolean;
    killed?: boolean;
  }): void;
}

const headerBytes = 9;

/**
 * One bubblewrap sandbox per workspace hosting a small Python command runner (python/command_runner.py,
 * pid 1 of the sandbox), so a command costs a fork and exec instead of a new sandbox. Commands run one at
 * a time; the runner enforces each one's time limit and output cap, and after each kills what it left
 * and empties /tmp and /dev/shm. Should the runner die, the command in flight ends with a message saying
 * so and `alive` turns false (the caller starts another).
 */
export class SandboxCommandRunner {
  private buffer: Buffer = Buffer.alloc(0);
  private pending: Pending | undefined;
  private ready: ((ok: boolean) => void) | undefined;
  private nextId = 1;
  private stopped = false;
  private exitText = "";

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly cgroup: WorkspaceCgroup | undefined,
  ) {}

  /** Starts a runner; null when it does not come up (no Python in the sandbox, bwrap refused). */
  static async start(options: CommandRunnerStart): Promise<SandboxCommandRunner | null> {
    const program = [options.python, "-I", "-S", "-c", readFileSync(runnerScript, "utf8")];
    const args = ["--as-pid-1", ...options.sandboxArguments, ...program];
    const { file, args: argv } =
      options.cgroup === undefined
        ? { file: "bwrap", args }
        : joinCgroupCommand(options.cgroup, "bwrap", args);
    const child = spawn(file, argv, { cwd: options.cwd, env: options.env, detached: true });
    const runner = new SandboxCommandRunner(child, options.cgroup);
    const ok = await runner.listen();
    if (ok) return runner;
    await runner.close();
    return null;
  }

  /** The process id of the runner's bwrap (outside the sandbox). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** False once the runner has exited or was killed. */
  get alive(): boolean {
    return !this.stopped;
  }

  private listen(): Promise<boolean> {
    const started = new Promise<boolean>((resolve) => {
      this.ready = resolve;
    });
    const timer = setTimeout(() => this.ready?.(false), startTimeLimitMs);
    this.child.stdout.on("data", (chunk: Buffer) => this.receive(chunk));
    this.child.stderr.on("data", (chunk: Buffer) => {
      this.exitText = `${this.exitText}${chunk.toString("utf8")}`.slice(-2000);
    });
    this.child.stdin.on("error", () => {});
    this.child.on("error", () => this.onExit(null, null));
    this.child.on("close", (code, signal) => this.onExit(code, signal));
    return started.finally(() => clearTimeout(timer));
  }

  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= headerBytes) {
      const length = this.buffer.readUInt32BE(5);
      if (this.buffer.length < headerBytes + length) return;
      const kind = String.fromCharCode(this.buffer[0] as number);
      const payload = this.buffer.subarray(headerBytes, headerBytes + length);
      this.buffer = this.buffer.subarray(headerBytes + length);
      this.onFrame(kind, payload);
    }
  }

  private onFrame(kind: string, payload: Buffer): void {
    if (kind === "R") {
      this.ready?.(true);
      return;
    }
    const pending = this.pending;
    if (pending === undefined) return;
    if (kind === "X") pending.finish(JSON.parse(payload.toString("utf8")));
    else {
      const room = pending.maxOutputBytes - pending.kept;
      pending.chunks.push(payload.length <= room ? payload : payload.subarray(0, room));
      pending.kept += Math.min(payload.length, room);
    }
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.stopped) return;
    this.stopped = true;
    this.ready?.(false);
    const how = signal === null ? `exit code ${code}` : `signal ${signal}`;
    const detail = this.exitText.trim() === "" ? "" : `: ${this.exitText.trim()}`;
    this.pending?.chunks.push(
      Buffer.from(
        `\n[the sandbox's command runner stopped during this command (${how}${detail}); the next command starts a new sandbox]\n`,
      ),
    );
    this.pending?.finish({ returncode: null });
  }

  /** Kills the runner, its sandbox and (when one is in use) everything in the workspace cgroup. */
  private kill(): void {
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, "SIGKILL");
    } catch {
      // gone already
    }
    if (this.cgroup !== undefined) killWorkspaceCgroup(this.cgroup);
  }

  /** Runs one command in the sandbox; resolves with what it did, as `runProcess` would report it. */
  run(command: RunnerCommand): Promise<ProcessResult> {
    const started = Date.now();
    const id = this.nextId++;
    return new Promise((resolve) => {
      let forced = false;
      const chunks: Buffer[] = [];
      const cut = () => {
        if (!this.stopped) this.child.stdin.write(`${JSON.stringify({ kill: id })}\n`);
        backstop.refresh();
      };
      const onAbort = () => cut();
      // the runner cuts the command itself; this only fires when the runner does not answer
      const backstop = setTimeout(() => {
        forced = true;
        this.kill();
      }, command.timeLimitMs + runnerGraceMs);
      this.pending = {
        chunks,
        kept: 0,
        maxOutputBytes: command.maxOutputBytes,
        finish: (exit) => {
          clearTimeout(backstop);
          command.signal?.removeEventListener("abort", onAbort);
          this.pending = undefined;
          resolve({
            output: new TextDecoder("utf-8").decode(Buffer.concat(chunks)),
            returncode: exit.returncode ?? null,
            timedOut: exit.timedOut === true || (forced && !command.signal?.aborted),
            outputLimited: exit.outputLimited === true,
            elapsedMs: Date.now() - started,
          });
        },
      };
      if (this.stopped) return this.pending.finish({ returncode: null });
      command.signal?.addEventListener("abort", onAbort, { once: true });
      this.child.stdin.write(`${JSON.stringify(this.request(id, command))}\n`);
      if (command.signal?.aborted === true) cut();
    });
  }

  private request(id: number, command: RunnerCommand) {
    return {
      id,
      argv: command.argv,
      env: command.env,
      cwd: command.cwd,
      input: command.input ?? "",
      timeLimitMs: command.timeLimitMs,
      maxOutputBytes: command.maxOutputBytes,
    };
  }

  /** Ends the runner and its sandbox; safe to call twice. */
  async close(): Promise<void> {
    if (this.stopped) return;
    const exited = new Promise<void>((resolve) => this.child.once("close", () => resolve()));
    this.child.stdin.end();
    this.kill();
    await exited;
  }
}
