import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EnvironmentError } from "@hs/spec";
import { mirrorName, type SweInstance } from "./swe-instance.js";

/** Author and committer of every bundled commit (scripts/bundled-constants.mjs holds the same values). */
export const bundledAuthor = { name: "Harness-S Fixtures", email: "fixtures@harness-s.invalid" } as const;
/** The Python of the bundled repositories: Debian's, with its pytest (scripts/tools.sh installs them). */
export const bundledPython = "/usr/bin/python3";
/** The test command of the bundled repositories (scripts/bundled-constants.mjs holds the same). */
export const bundledTestCommand = `${bundledPython} -m pytest -rA -p no:cacheprovider`;
/** Owner of the bundled repositories. */
export const bundledOwner = "harness-s";

function commitEnvironment(date: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_AUTHOR_NAME: bundledAuthor.name,
    GIT_AUTHOR_EMAIL: bundledAuthor.email,
    GIT_COMMITTER_NAME: bundledAuthor.name,
    GIT_COMMITTER_EMAIL: bundledAuthor.email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
  };
}

function git(args: string[], cwd: string, env: NodeJS.ProcessEnv, input?: string): string {
  return execFileSync("git", args, { cwd, env, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"], ...(input === undefined ? {} : { input }) });
}

/**
 * Rebuilds one base commit in the bare mirror without a work tree: the fixed tree of
 * `data/repos/<name>` (already in the index file), the gold patch applied in reverse to the index (so the
 * bug is back), committed with the fixed author, committer and the instance's `created_at` as date, as a
 * root commit. The hash must equal the recorded `base_commit`.
 */
function buildBaseCommit(instance: SweInstance, fixedTree: string, mirror: string, indexFile: string): void {
  const env = { ...commitEnvironment(instance.created_at), GIT_INDEX_FILE: indexFile };
  const inMirror = (args: string[], input?: string) => git(["--git-dir", mirror, ...args], mirror, env, input).trim();
  inMirror(["read-tree", fixedTree]);
  inMirror(["apply", "--cached", "-R", "-"], instance.patch);
  const tree = inMirror(["write-tree"]);
  const hash = inMirror(["commit-tree", tree, "-m", `${instance.repo.split("/")[1]}: snapshot`]);
  if (hash !== instance.base_commit) {
    throw new EnvironmentError(
      `rebuilt ${instance.instance_id} as ${hash}, but the data records base_commit ${instance.base_commit}`,
    );
  }
  inMirror(["update-ref", `refs/instances/${instance.instance_id}`, hash]);
}

/**
 * npm renames every `.gitignore` of a package to `.npmignore` when it installs the package from its
 * tarball, so an installed copy of `data/repos/<name>` holds `.npmignore` where the data has
 * `.gitignore`. The index gets the `.gitignore` name back (same blob and mode), or every rebuilt hash
 * would differ from the recorded one.
 */
function restoreGitignores(treeDirectory: string, mirror: string, env: NodeJS.ProcessEnv): void {
  const inMirror = (args: string[]) =>
    git(["--git-dir", mirror, "--work-tree", treeDirectory, ...args], treeDirectory, env);
  const staged = inMirror(["ls-files", "--stage"])
    .split("\n")
    .filter((line) => line.includes("\t"))
    .map((line) => ({ info: line.split("\t")[0] as string, path: line.split("\t")[1] as string }));
  const paths = new Set(staged.map((entry) => entry.path));
  for (const { info, path } of staged) {
    if (path !== ".npmignore" && !path.endsWith("/.npmignore")) continue;
    const gitignore = `${path.slice(0, -".npmignore".length)}.gitignore`;
    if (paths.has(gitignore)) continue;
    const [mode, blob] = info.split(" ");
    inMirror(["update-index", "--force-remove", path]);
    inMirror(["update-index", "--add", "--cacheinfo", `${mode},${blob},${gitignore}`]);
  }
}

/** Writes a repository's fixed tree into the mirror's object store; returns its tree id. */
function storeFixedTree(treeDirectory: string, mirror: string, indexFile: string): string {
  const env = { ...commitEnvironment("2024-01-01T00:00:00Z"), GIT_INDEX_FILE: indexFile };
  git(["--git-dir", mirror, "--work-tree", treeDirectory, "add", "-A", "."], treeDirectory, env);
  restoreGitignores(treeDirectory, mirror, env);
  return git(["--git-dir", mirror, "write-tree"], mirror, env).trim();
}

/** A key of the bundled data: changes whenever a tree file or an instance changes. */
export function bundledDataKey(reposDirectory: string, instances: readonly SweInstance[]): string {
  const hash = createHash("sha256");
  const walk = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true }).sort((x, y) => x.name.localeCompare(y.name))) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(path.slice(reposDirectory.length)).update(readFileSync(path));
    }
  };
  walk(reposDirectory);
  for (const instance of instances) hash.update(`${instance.instance_id}:${instance.base_commit}`);
  return hash.digest("hex").slice(0, 16);
}

/**
 * Builds (once per data version; atomically, so concurrent builders do not collide) the mirror of the
 * bundled repositories: `DIR/harness-s__<name>` with one ref per instance at its base commit. Returns
 * DIR. Throws `EnvironmentError` when a rebuilt hash differs from the recorded one.
 */
export function ensureBundledMirror(
  reposDirectory: string,
  instances: readonly SweInstance[],
  cacheDirectory: string = tmpdir(),
): string {
  const target = join(cacheDirectory, `hs-swegym-mirror-${bundledDataKey(reposDirectory, instances)}`);
  if (existsSync(join(target, "complete"))) return target;
  const building = mkdtempSync(join(cacheDirectory, "hs-swegym-mirror-building-"));
  try {
    const fixedTrees = new Map<string, string>();
    const indexFile = join(building, "index");
    for (const instance of instances) {
      const name = instance.repo.split("/")[1] as string;
      const mirror = join(building, mirrorName(instance.repo));
      if (!existsSync(mirror)) {
        mkdirSync(mirror);
        git(["init", "-q", "--bare"], mirror, commitEnvironment(instance.created_at));
        rmSync(indexFile, { force: true });
        fixedTrees.set(mirror, storeFixedTree(join(reposDirectory, name), mirror, indexFile));
      }
      buildBaseCommit(instance, fixedTrees.get(mirror) as string, mirror, indexFile);
    }
    rmSync(indexFile, { force: true });
    execFileSync("touch", [join(building, "complete")]);
    try {
      renameSync(building, target);
    } catch {
      // another process finished first; its copy is identical
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return target;
}
