import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { EnvironmentError } from "@hs/harness";
import { mirrorName } from "../data/swe-instance.js";
import { killCgroup, runProcess } from "./run-process.js";
import {
  bubblewrapArguments,
  createPidsCgroup,
  detectIsolation,
  drainPidsCgroup,
  type IsolationLevel,
} from "./sandbox.js";
import {
  type CheckoutRequest,
  defaultCommandLimits,
  type RunOptions,
  type Runtime,
  type Workspace,
} from "./workspace.js";

/** Options of the local runtime. */
export interface LocalRuntimeOptions {
  /** The mirror: `DIR/<owner>__<name>` git repositories. */
  mirrorDirectory: string;
  /** `auto` (default): bubblewrap when it works here, else none. */
  isolation?: "auto" | IsolationLevel;
  /** Processes one workspace may hold at once, where a pids cgroup can be made (default 256). */
  maxProcesses?: number;
  /** Where episode directories are made (default the OS temp directory). */
  scratchDirectory?: string;
  /**
   * Paths hidden from commands under bubblewrap (an empty tmpfs over each), e.g. the benchmark's data with
   * the gold patches. The mirror directory is always hidden.
   */
  hiddenPaths?: readonly string[];
  /**
   * Honour `login` requests with `bash -lc` (default false: `bash -c`, as mini-swe-agent's
   * LocalEnvironment runs commands through `subprocess.run(..., shell=True)`; a login shell also runs the
   * user's profile, whose output would come before the command's and hide the submit sentinel).
   */
  loginShell?: boolean;
  /**
   * Absolute path of the Python the repositories' tests run with. When given, every command finds it
   * first on PATH as `python`, `python3` and `pytest`, as SWE-bench's images activate the conda env
   * `testbed` for the agent and the grader alike (default: whatever PATH finds).
   */
  python?: string;
}

/** Environment of every command: mini-swe-agent's swebench.yaml `env`, no byte-code files in the repository. */
const commandEnvironment: Record<string, string> = {
  PAGER: "cat",
  MANPAGER: "cat",
  LESS: "-R",
  PIP_PROGRESS_BAR: "off",
  TQDM_DISABLE: "1",
  PYTHONDONTWRITEBYTECODE: "1",
  GIT_TERMINAL_PROMPT: "0",
};

async function git(args: string[], cwd: string, signal?: AbortSignal): Promise<string> {
  const result = await runProcess("git", args, {
    cwd,
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
    timeLimitMs: 120_000,
    maxOutputBytes: 1024 * 1024,
    ...(signal === undefined ? {} : { signal }),
  });
  if (result.returncode !== 0) throw new EnvironmentError(`git ${args[0]} failed: ${result.output.trim()}`);
  return result.output;
}

/** `DIR/python`, `DIR/python3` linked to the interpreter and `DIR/pytest` running its pytest. */
async function linkPython(directory: string, python: string): Promise<void> {
  await mkdir(directory);
  await symlink(python, join(directory, "python"));
  await symlink(python, join(directory, "python3"));
  const pytest = join(directory, "pytest");
  await writeFile(pytest, `#!/bin/sh\nexec '${python.replaceAll("'", "'\\''")}' -m pytest "$@"\n`);
  await chmod(pytest, 0o755);
}

/** The environment of a workspace's commands, with `binDirectory` first on PATH when given. */
function workspaceEnvironment(binDirectory: string | undefined): NodeJS.ProcessEnv {
  const inherited = process.env.PATH;
  const path =
    binDirectory === undefined || inherited === undefined
      ? (binDirectory ?? inherited)
      : `${binDirectory}:${inherited}`;
  return { ...process.env, ...commandEnvironment, ...(path === undefined ? {} : { PATH: path }) };
}

class LocalWorkspace implements Workspace {
  readonly directory: string;
  /** Where the interpreter's links go when the runtime was given a Python (first on PATH then). */
  readonly binDirectory: string;
  private readonly environment: NodeJS.ProcessEnv;
  private closed = false;

  constructor(
    readonly episodeDirectory: string,
    readonly isolation: IsolationLevel,
    /** The workspace's pids cgroup, when one could be made. */
    readonly cgroupDirectory: string | undefined,
    private readonly hiddenPaths: readonly string[],
    private readonly loginShell: boolean,
    withPython: boolean,
  ) {
    this.directory = join(episodeDirectory, "testbed");
    this.binDirectory = join(episodeDirectory, "bin");
    this.environment = workspaceEnvironment(withPython ? this.binDirectory : undefined);
  }

  async run(command: string, options: RunOptions = {}) {
    if (this.closed) throw new EnvironmentError("the workspace is closed");
    // --norc: bash reads ~/.bashrc even without -i when its stdin is a socket (node's pipes are) and
    // SHLVL is below 2 (as under turbo's filtered environment), and a .bashrc prints into the output
    const shell = options.login === true && this.loginShell ? ["-lc"] : ["--norc", "-c"];
    const bash = ["bash", ...shell, command];
    const [program, args] =
      this.isolation === "bubblewrap"
        ? [
            "bwrap",
            [...bubblewrapArguments(this.episodeDirectory, this.directory, this.hiddenPaths), ...bash],
          ]
        : [bash[0] as string, bash.slice(1)];
    return runProcess(program, args, {
      cwd: this.directory,
      env: this.environment,
      timeLimitMs: options.timeLimitMs ?? defaultCommandLimits.timeLimitMs,
      maxOutputBytes: options.maxOutputBytes ?? defaultCommandLimits.maxOutputBytes,
      ...(options.input === undefined ? {} : { input: options.input }),
      ...(this.cgroupDirectory === undefined ? {} : { cgroupDirectory: this.cgroupDirectory }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  }

  async writeScratchFile(name: string, content: string): Promise<string> {
    const path = join(this.episodeDirectory, basename(name));
    await writeFile(path, content);
    return path;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.cgroupDirectory !== undefined) await drainPidsCgroup(this.cgroupDirectory, killCgroup);
    await rm(this.episodeDirectory, { recursive: true, force: true, maxRetries: 3 });
  }
}

/**
 * Checks out `<mirror>/<owner>__<name>` at the base commit into a fresh directory per workspace: a
 * one-commit shallow fetch, so neither later commits nor other instances' commits of the mirror are
 * visible (SWE-bench removes them from its images for the same reason, test_spec/python.py
 * `make_repo_script_list_py`). Commands run under bubblewrap where it works.
 */
export function createLocalRuntime(options: LocalRuntimeOptions): Runtime {
  const requested = options.isolation ?? "auto";
  const isolation: IsolationLevel = requested === "auto" ? detectIsolation() : requested;
  let counter = 0;
  const hidden = [options.mirrorDirectory, ...(options.hiddenPaths ?? [])].filter((path) => existsSync(path));
  return {
    id: "local",
    async createWorkspace(request: CheckoutRequest): Promise<Workspace> {
      const mirror = join(options.mirrorDirectory, mirrorName(request.repo));
      if (!existsSync(join(mirror, ".git")) && !existsSync(join(mirror, "HEAD"))) {
        throw new EnvironmentError(
          `repository ${request.repo} is not in the mirror: no git repository at ${mirror}`,
        );
      }
      const episodeDirectory = await mkdtemp(join(options.scratchDirectory ?? tmpdir(), "hs-swegym-"));
      counter += 1;
      const cgroup = createPidsCgroup(
        `${basename(episodeDirectory)}-${counter}`,
        options.maxProcesses ?? 256,
      );
      const workspace = new LocalWorkspace(
        episodeDirectory,
        isolation,
        cgroup,
        hidden,
        options.loginShell ?? false,
        options.python !== undefined,
      );
      try {
        const directory = workspace.directory;
        await git(["init", "-q", directory], episodeDirectory, request.signal);
        await git(
          ["fetch", "-q", "--depth=1", "--no-tags", `file://${mirror}`, request.baseCommit],
          directory,
          request.signal,
        );
        await git(["checkout", "-q", "--detach", "FETCH_HEAD"], directory, request.signal);
        if (options.python !== undefined) await linkPython(workspace.binDirectory, options.python);
      } catch (error) {
        await workspace.close();
        throw new EnvironmentError(
          `cannot check out ${request.repo} at ${request.baseCommit}: ${(error as Error).message}`,
          { cause: error },
        );
      }
      return workspace;
    },
  };
}
