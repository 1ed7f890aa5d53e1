import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { EnvironmentError, InvalidInputError } from "@hs/harness";
import {
  createWorkspaceCgroup,
  removeWorkspaceCgroup,
  rlimitCommand,
  sandboxEnvironment,
  type WorkspaceCgroup,
  type WorkspaceLimitsV1,
} from "@hs/harness/sandbox";
import { mirrorName } from "../data/swe-instance.js";
import { runProcess } from "./run-process.js";
import {
  bubblewrapArguments,
  defaultWorkspaceLimits,
  detectIsolation,
  type IsolationLevel,
  visibleInSandbox,
  type WorkspaceSandbox,
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
  /** Processes one workspace may hold at once (default 256): a pids cgroup, else RLIMIT_NPROC. */
  maxProcesses?: number;
  /**
   * Bytes of memory of one workspace's processes together (default 2 GiB): a memory cgroup, else
   * RLIMIT_AS of each process.
   */
  memoryBytes?: number;
  /**
   * Host files or directories bound read-only at the same path inside the sandbox (a Python outside
   * /usr, prebuilt extensions). Only system directories and a part of /etc are there otherwise.
   */
  sandboxBinds?: readonly string[];
  /** Where episode directories are made (default the OS temp directory). */
  scratchDirectory?: string;
  /**
   * Paths hidden from commands under bubblewrap, e.g. the benchmark's data with the gold patches: they are
   * not mounted at all unless they lie inside a bound directory (a package installed under /usr, a
   * `sandboxBinds` entry), and then an empty tmpfs covers each. The mirror directory is always hidden.
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

/**
 * The environment of a workspace's commands: an allow-list of the caller's (no keys or tokens), a HOME
 * in the episode directory (so `git config --global` writes there, with any isolation), and
 * `binDirectory` first on PATH when given.
 */
function workspaceEnvironment(binDirectory: string | undefined, home: string): NodeJS.ProcessEnv {
  const inherited = process.env.PATH;
  const path =
    binDirectory === undefined || inherited === undefined
      ? (binDirectory ?? inherited)
      : `${binDirectory}:${inherited}`;
  return sandboxEnvironment({
    ...commandEnvironment,
    HOME: home,
    ...(path === undefined ? {} : { PATH: path }),
  });
}

/** The limits the cgroup does not hold, for the rlimit fallback. */
function missingLimits(
  cgroup: WorkspaceCgroup | undefined,
  limits: WorkspaceLimitsV1,
): Partial<WorkspaceLimitsV1> {
  return {
    ...(cgroup?.enforced.has("processes") === true ? {} : { maxProcesses: limits.maxProcesses }),
    ...(cgroup?.enforced.has("memory") === true ? {} : { memoryBytes: limits.memoryBytes }),
  };
}

class LocalWorkspace implements Workspace {
  readonly directory: string;
  /** Where the interpreter's links go when the runtime was given a Python (first on PATH then). */
  readonly binDirectory: string;
  /** HOME of the workspace's commands. */
  readonly homeDirectory: string;
  private readonly environment: NodeJS.ProcessEnv;
  private readonly sandbox: WorkspaceSandbox;
  private closed = false;
  private homeMade = false;

  constructor(
    readonly episodeDirectory: string,
    readonly isolation: IsolationLevel,
    /** The workspace's cgroup, when one could be made. */
    readonly cgroup: WorkspaceCgroup | undefined,
    private readonly limits: WorkspaceLimitsV1,
    sandbox: Pick<WorkspaceSandbox, "hiddenPaths" | "readOnlyBinds">,
    private readonly loginShell: boolean,
    withPython: boolean,
  ) {
    this.directory = join(episodeDirectory, "testbed");
    this.binDirectory = join(episodeDirectory, "bin");
    this.homeDirectory = join(episodeDirectory, "home");
    this.environment = workspaceEnvironment(withPython ? this.binDirectory : undefined, this.homeDirectory);
    this.sandbox = { ...sandbox, episodeDirectory, workingDirectory: this.directory };
  }

  /** The program and arguments of one command: bash, behind rlimits and bwrap as in force here. */
  private commandLine(command: string, login: boolean): { file: string; args: string[] } {
    // --norc: bash reads ~/.bashrc even without -i when its stdin is a socket (node's pipes are) and
    // SHLVL is below 2 (as under turbo's filtered environment), and a .bashrc prints into the output
    const shell = login && this.loginShell ? ["-lc"] : ["--norc", "-c"];
    const limited = rlimitCommand(missingLimits(this.cgroup, this.limits), "bash", [...shell, command]);
    if (this.isolation === "none") return limited;
    return { file: "bwrap", args: [...bubblewrapArguments(this.sandbox), limited.file, ...limited.args] };
  }

  async run(command: string, options: RunOptions = {}) {
    if (this.closed) throw new EnvironmentError("the workspace is closed");
    if (!this.homeMade) {
      await mkdir(this.homeDirectory, { recursive: true });
      this.homeMade = true;
    }
    const { file, args } = this.commandLine(command, options.login === true);
    return runProcess(file, args, {
      cwd: this.directory,
      env: this.environment,
      timeLimitMs: options.timeLimitMs ?? defaultCommandLimits.timeLimitMs,
      maxOutputBytes: options.maxOutputBytes ?? defaultCommandLimits.maxOutputBytes,
      ...(options.input === undefined ? {} : { input: options.input }),
      ...(this.cgroup === undefined ? {} : { cgroup: this.cgroup }),
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
    if (this.cgroup !== undefined) await removeWorkspaceCgroup(this.cgroup);
    await rm(this.episodeDirectory, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** Refuses extra binds that do not exist and a `--python` the sandbox would not show. */
function checkSandboxInputs(options: LocalRuntimeOptions, isolation: IsolationLevel): void {
  for (const bind of options.sandboxBinds ?? []) {
    if (!bind.startsWith("/") || !existsSync(bind))
      throw new InvalidInputError(`--sandbox-bind expects an existing absolute path, got "${bind}"`, {
        field: "sandbox-bind",
      });
  }
  const python = options.python;
  if (isolation !== "bubblewrap" || python === undefined || !python.startsWith("/")) return;
  if (!visibleInSandbox(python, options.sandboxBinds ?? []))
    throw new InvalidInputError(
      `the Python ${python} is not visible inside the sandbox (only /usr, /bin, /lib* and a part of /etc are); bind its installation read-only with --sandbox-bind DIR`,
      { field: "python" },
    );
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
  const binds = options.sandboxBinds ?? [];
  checkSandboxInputs(options, isolation);
  const limits: WorkspaceLimitsV1 = {
    maxProcesses: options.maxProcesses ?? defaultWorkspaceLimits.maxProcesses,
    memoryBytes: options.memoryBytes ?? defaultWorkspaceLimits.memoryBytes,
  };
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
      const cgroup = createWorkspaceCgroup(`${basename(episodeDirectory)}-${counter}`, limits);
      const workspace = new LocalWorkspace(
        episodeDirectory,
        isolation,
        cgroup,
        limits,
        { hiddenPaths: hidden, readOnlyBinds: binds },
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
