import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeDirectoriesOfGoneProcesses } from "@hs/harness/sandbox";
import { EnvironmentError } from "@hs/spec";
import { runProcess } from "./run-process.js";

/** What is built into a checkout before the agent or the grader sees it (from the instance's spec). */
export interface WorkspaceSetup {
  /**
   * A command run once per repository commit in the checkout (the spec's `install`), so that every
   * workspace of that commit starts from the built tree, as SWE-bench's images hold `/testbed` built.
   */
  install?: string;
  /**
   * A directory of prebuilt files copied over the checkout before `install` runs; `{commit}` in it is
   * replaced by the base commit and `{repo}` by `owner__name` (artifacts are per commit, specs per version).
   */
  artifacts?: string;
}

/** Runs a setup command in a template being built (the runtime's sandbox and Python). */
export type SetupRunner = (
  templateDirectory: string,
  command: string,
  signal?: AbortSignal,
) => Promise<{ returncode: number | null; output: string; timedOut: boolean }>;

/** Options of the template store. */
export interface WorkspaceTemplatesOptions {
  /** Where templates are kept (one directory per repository, commit and setup); a function is called at the first build. */
  directory: string | (() => string);
  /** Runs `install` in a template. */
  runSetup: SetupRunner;
  /** Salt of the template key besides the setup (e.g. the Python path the install ran with). */
  keySalt?: string;
  /** Templates kept at once; the least recently used one not in use is removed past it (default 8). */
  maxTemplates?: number;
  /**
   * How a workspace is made from its template: `overlay` mounts an overlay file system (the template
   * read-only below, the workspace's changes in its own upper layer; needs the right to mount, as root
   * has), `copy` copies the tree (`cp -a --reflink=auto`), `auto` (default) tries overlay once and
   * copies where it cannot mount.
   */
  layering?: "auto" | "overlay" | "copy";
}

/** A workspace's hold on its template: released when the workspace is removed. */
export interface TemplateLease {
  /** How the workspace was made. */
  layering: "overlay" | "copy";
  /** Unmounts the overlay (when there is one) and lets the template be evicted. */
  release(): Promise<void>;
}

/** What one template is made from. */
export interface TemplateRequest {
  /** The mirror repository (bare or not). */
  mirror: string;
  /** `owner__name`, as in the mirror. */
  mirrorName: string;
  /** The base commit. */
  commit: string;
  /** What is built into it. */
  setup?: WorkspaceSetup;
  /** Cancels the build. */
  signal?: AbortSignal;
}

/** The commit's tree, `testbed/` (work tree and `.git`), and how many workspaces use it. */
interface Template {
  directory: string;
  users: number;
}

/**
 * The commit and its parent: `git show` in the eval script then prints the base commit's own change,
 * as in SWE-bench's images, which hold the whole history up to the base commit (SWE-bench@v4.1.0
 * swebench/harness/test_spec/python.py `make_repo_script_list_py`: `git clone`, then `git reset --hard
 * <base>`). One commit deep, the base commit is a root commit and `git show` prints the whole tree.
 */
export const checkoutDepth = 2;

async function git(args: string[], cwd: string, signal?: AbortSignal): Promise<string> {
  const result = await runProcess("git", args, {
    cwd,
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
    timeLimitMs: 600_000,
    maxOutputBytes: 1024 * 1024,
    ...(signal === undefined ? {} : { signal }),
  });
  if (result.returncode !== 0) throw new EnvironmentError(`git ${args[0]} failed: ${result.output.trim()}`);
  return result.output;
}

async function copy(args: string[], signal?: AbortSignal): Promise<void> {
  const result = await runProcess("cp", args, {
    cwd: "/",
    env: process.env,
    timeLimitMs: 600_000,
    maxOutputBytes: 64 * 1024,
    ...(signal === undefined ? {} : { signal }),
  });
  if (result.returncode !== 0) throw new EnvironmentError(`cp failed: ${result.output.trim()}`);
}

function expandArtifacts(pattern: string, request: TemplateRequest): string {
  return pattern.replaceAll("{commit}", request.commit).replaceAll("{repo}", request.mirrorName);
}

/** Mounts `lower` read-only under an overlay at `target`; null when mounted, else the reason. */
async function mountOverlay(lower: string, target: string, layers: string): Promise<string | null> {
  if ([lower, target, layers].some((path) => /[,:\\]/.test(path))) return "a path holds , : or \\";
  const upper = join(layers, "upper");
  const work = join(layers, "work");
  await mkdir(upper, { recursive: true });
  await mkdir(work, { recursive: true });
  await mkdir(target, { recursive: true });
  const result = await runProcess(
    "mount",
    ["-t", "overlay", "overlay", "-o", `lowerdir=${lower},upperdir=${upper},workdir=${work}`, target],
    { cwd: "/", env: process.env, timeLimitMs: 30_000, maxOutputBytes: 64 * 1024 },
  );
  return result.returncode === 0 ? null : result.output.trim() || `mount exited ${result.returncode}`;
}

/** Unmounts an overlay; lazily when something still holds it open. */
async function unmount(target: string): Promise<void> {
  const options = { cwd: "/", env: process.env, timeLimitMs: 30_000, maxOutputBytes: 64 * 1024 };
  const result = await runProcess("umount", [target], options);
  if (result.returncode !== 0) await runProcess("umount", ["-l", target], options);
}

/**
 * Files written in the index's own second are "racily clean": every `git status` of every copy would
 * re-hash them. Their mtimes are set two seconds back and the index refreshed once, here.
 */
async function settleIndex(testbed: string): Promise<void> {
  const past = Math.floor(Date.now() / 1000) - 2;
  const script = `find . -path ./.git -prune -o -print0 | xargs -0 -r touch -h -d @${past} && git update-index -q --refresh; true`;
  await runProcess("bash", ["-c", script], {
    cwd: testbed,
    env: process.env,
    timeLimitMs: 600_000,
    maxOutputBytes: 1024 * 1024,
  });
}

const temporaryDirectories: string[] = [];
const temporaryPrefix = "hs-swegym-templates-";

/**
 * A fresh directory for one runtime's templates (`hs-swegym-templates-<pid>-...` in the OS temp
 * directory), removed when the process exits; the first call also removes those of processes that
 * are gone (a test worker or a run killed before its exit hook).
 */
export function temporaryTemplateDirectory(): string {
  if (temporaryDirectories.length === 0) {
    removeDirectoriesOfGoneProcesses(temporaryPrefix);
    process.once("exit", () => {
      for (const made of temporaryDirectories) rmSync(made, { recursive: true, force: true });
    });
  }
  const directory = mkdtempSync(join(tmpdir(), `${temporaryPrefix}${process.pid}-`));
  temporaryDirectories.push(directory);
  return directory;
}

/** The last lines of a text, for error messages. */
export function tailLines(text: string, count = 20): string {
  return text.trimEnd().split("\n").slice(-count).join("\n");
}

/**
 * Per repository commit (and setup), one checkout built once: fetched two commits deep from the
 * mirror, prebuilt artifacts copied in, `install` run, the index refreshed so that copies need no
 * re-hash. A workspace is then an overlay mount over it (its changes in its own upper layer) or,
 * where mounting is not allowed, a copy, so creating one costs a mount or a file copy, not a fetch
 * and a checkout. A template in use by a workspace is never evicted.
 */
export class WorkspaceTemplates {
  private readonly templates = new Map<string, Promise<Template>>();
  private readonly order: string[] = [];
  private overlayWorks: boolean | undefined;
  private resolvedDirectory: string | undefined;

  constructor(private readonly options: WorkspaceTemplatesOptions) {}

  /** The key of a template: repository, commit and a hash of the setup (and salt). */
  key(request: TemplateRequest): string {
    const setup = JSON.stringify([request.setup?.install ?? null, request.setup?.artifacts ?? null]);
    const hash = createHash("sha256")
      .update(`${setup}\n${this.options.keySalt ?? ""}`)
      .digest("hex")
      .slice(0, 12);
    return `${request.mirrorName}/${request.commit}-${hash}`;
  }

  /**
   * Makes `destination` (the new repository directory, not existing yet) from the template of
   * `request`, building the template first when needed; `layers` is a directory of the workspace for
   * the overlay's upper and work layers.
   */
  async checkout(request: TemplateRequest, destination: string, layers: string): Promise<TemplateLease> {
    const key = this.key(request);
    let pending = this.templates.get(key);
    if (pending === undefined) {
      pending = this.build(request, key);
      this.templates.set(key, pending);
      pending.catch(() => this.templates.delete(key));
    }
    const template = await pending;
    this.touch(key);
    template.users += 1;
    let layering: "overlay" | "copy";
    try {
      layering = await this.materialize(
        join(template.directory, "testbed"),
        destination,
        layers,
        request.signal,
      );
    } catch (error) {
      template.users -= 1;
      throw error;
    }
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      if (layering === "overlay") await unmount(destination);
      template.users -= 1;
      await this.evict();
    };
    return { layering, release };
  }

  private async materialize(
    source: string,
    destination: string,
    layers: string,
    signal: AbortSignal | undefined,
  ): Promise<"overlay" | "copy"> {
    const layering = this.options.layering ?? "auto";
    if (layering !== "copy" && this.overlayWorks !== false) {
      const mounted = await mountOverlay(source, destination, layers);
      if (mounted === null) {
        this.overlayWorks = true;
        return "overlay";
      }
      if (layering === "overlay") throw new EnvironmentError(`cannot mount an overlay: ${mounted}`);
      this.overlayWorks = false;
      await rm(destination, { recursive: true, force: true });
    }
    await copy(["-a", "--reflink=auto", source, destination], signal);
    return "copy";
  }

  private touch(key: string): void {
    const index = this.order.indexOf(key);
    if (index >= 0) this.order.splice(index, 1);
    this.order.push(key);
  }

  private async evict(): Promise<void> {
    const limit = this.options.maxTemplates ?? 8;
    for (const key of [...this.order]) {
      if (this.order.length <= limit) return;
      const pending = this.templates.get(key);
      const template = pending === undefined ? undefined : await pending.catch(() => undefined);
      if (template !== undefined && template.users > 0) continue;
      this.order.splice(this.order.indexOf(key), 1);
      this.templates.delete(key);
      if (template !== undefined) await rm(template.directory, { recursive: true, force: true });
    }
  }

  private async build(request: TemplateRequest, key: string): Promise<Template> {
    const root = this.options.directory;
    this.resolvedDirectory ??= typeof root === "string" ? root : root();
    const directory = join(this.resolvedDirectory, key);
    if (existsSync(join(directory, "testbed"))) return { directory, users: 0 };
    const building = `${directory}.building-${process.pid}-${randomBytes(4).toString("hex")}`;
    const testbed = join(building, "testbed");
    await mkdir(building, { recursive: true });
    try {
      await git(["init", "-q", testbed], building, request.signal);
      await git(
        ["fetch", "-q", `--depth=${checkoutDepth}`, "--no-tags", `file://${request.mirror}`, request.commit],
        testbed,
        request.signal,
      );
      await git(["checkout", "-q", "--detach", "FETCH_HEAD"], testbed, request.signal);
      // copies keep mtimes but not inodes or ctimes: compare what a copy keeps, so no file is re-hashed
      await git(["config", "core.checkStat", "minimal"], testbed);
      await git(["config", "core.trustctime", "false"], testbed);
      await this.applySetup(request, building, testbed);
      await settleIndex(testbed);
      await rename(building, directory).catch(async (error: NodeJS.ErrnoException) => {
        if (!existsSync(join(directory, "testbed"))) throw error;
        await rm(building, { recursive: true, force: true });
      });
      return { directory, users: 0 };
    } catch (error) {
      await rm(building, { recursive: true, force: true });
      throw error;
    }
  }

  private async applySetup(request: TemplateRequest, building: string, testbed: string): Promise<void> {
    const setup = request.setup ?? {};
    if (setup.artifacts !== undefined) {
      const source = expandArtifacts(setup.artifacts, request);
      if (!existsSync(source)) {
        throw new EnvironmentError(
          `the spec's artifacts directory ${source} (from "${setup.artifacts}") does not exist`,
        );
      }
      await copy(["-a", "--reflink=auto", `${source}/.`, testbed], request.signal);
    }
    if (setup.install === undefined) return;
    const run = await this.options.runSetup(building, setup.install, request.signal);
    if (run.returncode !== 0) {
      const how = run.timedOut ? "timed out" : `exited ${run.returncode}`;
      throw new EnvironmentError(
        `the spec's install (${setup.install}) ${how} in ${request.mirrorName} at ${request.commit}:\n${tailLines(run.output)}`,
      );
    }
  }
}
