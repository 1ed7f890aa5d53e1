import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import {
  createWorkspaceCgroup,
  removeWorkspaceCgroup,
  rlimitCommand,
  sandboxEnvironment,
  type WorkspaceCgroup,
  type WorkspaceLimitsV1,
} from "@hs/harness/sandbox";
import { EnvironmentError, InvalidInputError } from "@hs/spec";
import { mirrorName } from "../data/swe-instance.js";
import { SandboxCommandRunner } from "./command-runner.js";
import { type ProcessResult, runProcess } from "./run-process.js";
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
import { type TemplateLease, temporaryTemplateDirectory, WorkspaceTemplates } from "./workspace-templates.js";

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
  /**
   * Where the per-commit templates workspaces are made from are kept (default: a fresh directory in the
   * OS temp directory, removed when the process exits).
   */
  templateDirectory?: string;
  /** Templates kept at once (default 8; a moto checkout is about 130 MB). */
  maxTemplates?: number;
  /** How workspaces are made from templates: `auto` (default: an overlay mount where allowed, else a copy), `overlay` or `copy`. */
  layering?: "auto" | "overlay" | "copy";
  /**
   * Under bubblewrap, run a workspace's commands through one long-lived sandbox hosting a command runner
   * (default true), instead of a new sandbox per command; where the runner cannot start, each command
   * gets its own sandbox as before.
   */
  commandRunner?: boolean;
}

/** The Python the command runner runs with inside the sandbox (a system directory, always bound). */
const runnerPython = "/usr/bin/python3";

/** Milliseconds a spec's `install` may run when a template is built (SWE-bench's grading default). */
export const setupTimeLimitMs = 1_800_000;

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
  private runner: SandboxCommandRunner | undefined;
  /** Set when the runner could not start: every command then gets its own sandbox. */
  private runnerUnavailable: boolean;
  private queue: Promise<unknown> = Promise.resolve();
  /** The hold on the template the repository directory was made from (unmounted and released on close). */
  lease: TemplateLease | undefined;

  constructor(
    readonly episodeDirectory: string,
    readonly isolation: IsolationLevel,
    /** The workspace's cgroup, when one could be made. */
    readonly cgroup: WorkspaceCgroup | undefined,
    private readonly limits: WorkspaceLimitsV1,
    sandbox: Pick<WorkspaceSandbox, "hiddenPaths" | "readOnlyBinds">,
    private readonly loginShell: boolean,
    withPython: boolean,
    commandRunner = false,
  ) {
    this.runnerUnavailable = !commandRunner || isolation !== "bubblewrap";
    this.directory = join(episodeDirectory, "testbed");
    this.binDirectory = join(episodeDirectory, "bin");
    this.homeDirectory = join(episodeDirectory, "home");
    this.environment = workspaceEnvironment(withPython ? this.binDirectory : undefined, this.homeDirectory);
    this.sandbox = { ...sandbox, episodeDirectory, workingDirectory: this.directory };
  }

  /** The program and arguments of one command inside the sandbox: bash, behind rlimits as in force here. */
  private shellLine(command: string, login: boolean): { file: string; args: string[] } {
    // --norc: bash reads ~/.bashrc even without -i when its stdin is a socket (node's pipes are) and
    // SHLVL is below 2 (as under turbo's filtered environment), and a .bashrc prints into the output
    const shell = login && this.loginShell ? ["-lc"] : ["--norc", "-c"];
    return rlimitCommand(missingLimits(this.cgroup, this.limits), "bash", [...shell, command]);
  }

  /** The workspace's runner, started (again, after a crash) when needed; undefined where it cannot start. */
  private async liveRunner(): Promise<SandboxCommandRunner | undefined> {
    if (this.runnerUnavailable) return undefined;
    if (this.runner?.alive === true) return this.runner;
    this.runner =
      (await SandboxCommandRunner.start({
        sandboxArguments: bubblewrapArguments(this.sandbox),
        python: runnerPython,
        cwd: this.directory,
        env: this.environment,
        ...(this.cgroup === undefined ? {} : { cgroup: this.cgroup }),
      })) ?? undefined;
    if (this.runner === undefined) this.runnerUnavailable = true;
    return this.runner;
  }

  async run(command: string, options: RunOptions = {}): Promise<ProcessResult> {
    if (this.closed) throw new EnvironmentError("the workspace is closed");
    const turn = this.queue.then(() => this.runNow(command, options));
    this.queue = turn.catch(() => {});
    return turn;
  }

  private async runNow(command: string, options: RunOptions): Promise<ProcessResult> {
    if (this.closed) throw new EnvironmentError("the workspace is closed");
    if (!this.homeMade) {
      await mkdir(this.homeDirectory, { recursive: true });
      this.homeMade = true;
    }
    const limited = this.shellLine(command, options.login === true);
    const limits = {
      timeLimitMs: options.timeLimitMs ?? defaultCommandLimits.timeLimitMs,
      maxOutputBytes: options.maxOutputBytes ?? defaultCommandLimits.maxOutputBytes,
      ...(options.input === undefined ? {} : { input: options.input }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    };
    const runner = await this.liveRunner();
    if (runner !== undefined)
      return runner.run({
        argv: [limited.file, ...limited.args],
        cwd: this.directory,
        env: this.environment,
        ...limits,
      });
    const { file, args } =
      this.isolation === "none"
        ? limited
        : { file: "bwrap", args: [...bubblewrapArguments(this.sandbox), limited.file, ...limited.args] };
    return runProcess(file, args, {
      cwd: this.directory,
      env: this.environment,
      ...limits,
      ...(this.cgroup === undefined ? {} : { cgroup: this.cgroup }),
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
    // a command still running is cut with its sandbox, as the cgroup's removal cuts it without a runner
    await this.runner?.close();
    await this.queue;
    await this.runner?.close();
    if (this.cgroup !== undefined) await removeWorkspaceCgroup(this.cgroup);
    await this.lease?.release();
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

interface TemplateContext {
  isolation: IsolationLevel;
  limits: WorkspaceLimitsV1;
  sandbox: Pick<WorkspaceSandbox, "hiddenPaths" | "readOnlyBinds">;
}

function templateStore(options: LocalRuntimeOptions, context: TemplateContext): WorkspaceTemplates {
  return new WorkspaceTemplates({
    directory: options.templateDirectory ?? temporaryTemplateDirectory,
    keySalt: options.python ?? "",
    ...(options.maxTemplates === undefined ? {} : { maxTemplates: options.maxTemplates }),
    ...(options.layering === undefined ? {} : { layering: options.layering }),
    runSetup: async (templateDirectory, command, signal) => {
      const workspace = new LocalWorkspace(
        templateDirectory,
        context.isolation,
        undefined,
        context.limits,
        context.sandbox,
        false,
        options.python !== undefined,
      );
      if (options.python !== undefined) await linkPython(workspace.binDirectory, options.python);
      return workspace.run(command, {
        timeLimitMs: setupTimeLimitMs,
        maxOutputBytes: defaultCommandLimits.maxOutputBytes,
        ...(signal === undefined ? {} : { signal }),
      });
    },
  });
}

/**
 * Checks out `<mirror>/<owner>__<name>` at the base commit into a fresh directory per workspace, made
 * from a per-commit template (`WorkspaceTemplates`: fetched two commits deep, the spec's setup built
 * in), so neither later commits nor other instances' commits of the mirror are visible (SWE-bench
 * removes them from its images for the same reason, test_spec/python.py `make_repo_script_list_py`).
 * Commands run under bubblewrap where it works.
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
  const sandbox = { hiddenPaths: hidden, readOnlyBinds: binds };
  const templates = templateStore(options, { isolation, limits, sandbox });
  return {
    id: "local",
    async createWorkspace(request: CheckoutRequest): Promise<Workspace> {
      const name = mirrorName(request.repo);
      const mirror = join(options.mirrorDirectory, name);
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
        sandbox,
        options.loginShell ?? false,
        options.python !== undefined,
        options.commandRunner ?? true,
      );
      try {
        workspace.lease = await templates.checkout(
          {
            mirror,
            mirrorName: name,
            commit: request.baseCommit,
            ...(request.setup === undefined ? {} : { setup: request.setup }),
            ...(request.signal === undefined ? {} : { signal: request.signal }),
          },
          workspace.directory,
          join(episodeDirectory, "layers"),
        );
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
