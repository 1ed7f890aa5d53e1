import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { EnvironmentError } from "@hs/spec";
import { runProcess } from "./run-process.js";
import {
  type CheckoutRequest,
  defaultCommandLimits,
  type RunOptions,
  type Runtime,
  type Workspace,
} from "./workspace.js";

/** The repository directory in SWE-Gym's images (SWE-bench `DOCKER_WORKDIR`). */
export const dockerWorkdir = "/testbed";
/** The conda environment of SWE-Gym's images. */
export const dockerCondaEnvironment = "testbed";

/**
 * SWE-Gym's per-instance image: `xingyaoww/sweb.eval.x86_64.<instance id with "__" as "_s_">`,
 * lower-cased (docker names are lower case).
 */
export function sweGymImage(instanceId: string, prefix = "xingyaoww/sweb.eval.x86_64."): string {
  return `${prefix}${instanceId.replaceAll("__", "_s_")}`.toLowerCase();
}

/** mini-swe-agent's command environment (swebench.yaml `env`), passed with `-e`. */
const commandEnvironment: Record<string, string> = {
  PAGER: "cat",
  MANPAGER: "cat",
  LESS: "-R",
  PIP_PROGRESS_BAR: "off",
  TQDM_DISABLE: "1",
};

/**
 * `docker run -d --name NAME -w /testbed --rm IMAGE sleep 2h`, as mini-swe-agent starts its container
 * (SWE-agent/mini-swe-agent@v1.17.0 src/minisweagent/environments/docker.py `_start_container`), with
 * the network off.
 */
export function dockerRunArguments(
  name: string,
  image: string,
  network: "none" | "bridge" = "none",
): string[] {
  return [
    "run",
    "-d",
    "--name",
    name,
    "-w",
    dockerWorkdir,
    "--rm",
    `--network=${network}`,
    image,
    "sleep",
    "2h",
  ];
}

/**
 * `docker exec -w /testbed -e K=V ... CONTAINER timeout -s KILL Ns bash -lc COMMAND` (mini-swe-agent's
 * `execute`, with coreutils `timeout` inside so the command stops in the container too, not only the
 * local `docker exec`).
 */
export function dockerExecArguments(
  container: string,
  command: string,
  options: { login: boolean; timeLimitMs: number; interactive?: boolean },
): string[] {
  const environment = Object.entries(commandEnvironment).flatMap(([key, value]) => ["-e", `${key}=${value}`]);
  const seconds = Math.max(1, Math.ceil(options.timeLimitMs / 1000));
  return [
    "exec",
    ...(options.interactive === true ? ["-i"] : []),
    "-w",
    dockerWorkdir,
    ...environment,
    container,
    "timeout",
    "-s",
    "KILL",
    `${seconds}s`,
    "bash",
    options.login ? "-lc" : "-c",
    command,
  ];
}

/** Whether a docker daemon answers here (`docker info`), with the reason when not. */
export function detectDocker(executable = "docker"): { available: boolean; reason: string } {
  const probe = spawnSync(executable, ["info", "--format", "{{.ServerVersion}}"], {
    encoding: "utf8",
    timeout: 15_000,
  });
  if (probe.error !== undefined) return { available: false, reason: `${executable}: ${probe.error.message}` };
  if (probe.status !== 0) return { available: false, reason: (probe.stderr || probe.stdout).trim() };
  return { available: true, reason: `docker server ${probe.stdout.trim()}` };
}

class DockerWorkspace implements Workspace {
  readonly directory = dockerWorkdir;
  readonly isolation = "docker container, network none";
  private closed = false;

  constructor(
    private readonly executable: string,
    private readonly container: string,
  ) {}

  async run(command: string, options: RunOptions = {}) {
    if (this.closed) throw new EnvironmentError("the workspace is closed");
    const timeLimitMs = options.timeLimitMs ?? defaultCommandLimits.timeLimitMs;
    const args = dockerExecArguments(this.container, command, {
      login: options.login === true,
      timeLimitMs,
      interactive: options.input !== undefined,
    });
    const result = await runProcess(this.executable, args, {
      cwd: "/",
      env: process.env,
      timeLimitMs: timeLimitMs + 5_000,
      maxOutputBytes: options.maxOutputBytes ?? defaultCommandLimits.maxOutputBytes,
      ...(options.input === undefined ? {} : { input: options.input }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    // `timeout -s KILL` exits 137 when it killed the command.
    if (result.returncode === 137 && result.elapsedMs >= timeLimitMs)
      return { ...result, timedOut: true, returncode: null };
    return result;
  }

  async writeScratchFile(name: string, content: string): Promise<string> {
    const path = `/tmp/${name.replaceAll("/", "_")}`;
    const result = await this.run(`cat > ${path}`, { input: content, timeLimitMs: 60_000 });
    if (result.returncode !== 0)
      throw new EnvironmentError(`cannot write ${path} in the container: ${result.output}`);
    return path;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await runProcess(this.executable, ["rm", "-f", this.container], {
      cwd: "/",
      env: process.env,
      timeLimitMs: 60_000,
      maxOutputBytes: 65_536,
    });
  }
}

/** Options of the docker runtime. */
export interface DockerRuntimeOptions {
  /** The docker CLI (default `docker`). */
  executable?: string;
  /** Image name prefix (default SWE-Gym's `xingyaoww/sweb.eval.x86_64.`). */
  imagePrefix?: string;
}

/**
 * SWE-Gym's per-instance images through the docker CLI: one container per workspace, the repository
 * at /testbed at the base commit (the image's own checkout), conda env `testbed` for the eval script.
 */
export function createDockerRuntime(options: DockerRuntimeOptions = {}): Runtime {
  const executable = options.executable ?? "docker";
  return {
    id: "docker",
    async createWorkspace(request: CheckoutRequest): Promise<Workspace> {
      const image = sweGymImage(request.instanceId, options.imagePrefix);
      const name = `hs-swegym-${randomBytes(6).toString("hex")}`;
      const started = await runProcess(executable, dockerRunArguments(name, image), {
        cwd: "/",
        env: process.env,
        timeLimitMs: 30 * 60_000,
        maxOutputBytes: 1024 * 1024,
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
      if (started.returncode !== 0) {
        throw new EnvironmentError(
          `cannot start ${image} for ${request.instanceId}: ${started.output.trim()}`,
        );
      }
      const workspace = new DockerWorkspace(executable, name);
      const head = await workspace.run("git rev-parse HEAD", { timeLimitMs: 60_000 });
      if (head.returncode !== 0 || !head.output.trim().startsWith(request.baseCommit.slice(0, 7))) {
        await workspace.close();
        throw new EnvironmentError(`${image} is not at ${request.baseCommit} (HEAD ${head.output.trim()})`);
      }
      return workspace;
    },
  };
}
