// Workspace creation on a large repository, before and after the per-commit templates of the SWE-Gym
// local runtime. "Before" is the previous checkout (git init, a one-commit fetch from the mirror, a
// checkout) per workspace; "after" is `createLocalRuntime().createWorkspace()` (the first workspace of
// a commit builds its template, later ones copy it).
// Usage: pnpm --filter @hs/benchmarks-swegym build
//        node bench/swegym-workspace.mjs [--mirror DIR --repo owner/name] [--commits N] [--repeats N] [--skip N]
// (the commits measured are N commits of the mirror HEAD's history after the first --skip ones).
// Without --mirror a repository of moto's size is generated (3,400 files, about 120 MB, 40 commits).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createLocalRuntime, mirrorName } from "../packages/benchmarks-swegym/dist/index.js";

const { values } = parseArgs({
  options: {
    mirror: { type: "string" },
    repo: { type: "string" },
    commits: { type: "string", default: "3" },
    repeats: { type: "string", default: "4" },
    skip: { type: "string", default: "5" },
  },
});
const commitCount = Number(values.commits);
const repeats = Number(values.repeats);

const gitEnvironment = {
  ...process.env,
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.invalid",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.invalid",
};
const git = (args, cwd) =>
  execFileSync("git", args, { cwd, env: gitEnvironment, encoding: "utf8", maxBuffer: 1 << 28 });

/** A deterministic text file of about `bytes` bytes. */
function sourceText(seed, bytes) {
  const lines = [];
  let size = 0;
  for (let line = 0; size < bytes; line += 1) {
    const text = `def function_${seed}_${line}(value):\n    return value * ${(seed * 31 + line) % 997} + ${line}\n`;
    lines.push(text);
    size += text.length;
  }
  return lines.join("");
}

/** Generates a repository of moto's size: 3,400 files (about 120 MB), then 39 commits of 5 files each. */
function generateMirror() {
  const mirror = mkdtempSync(join(tmpdir(), "hs-bench-mirror-"));
  const repo = join(mirror, "bench__large");
  mkdirSync(repo);
  git(["init", "-q", "-b", "main"], repo);
  for (let file = 0; file < 3400; file += 1) {
    const directory = join(repo, `package_${file % 120}`);
    mkdirSync(directory, { recursive: true });
    const bytes = file % 50 === 0 ? 1_500_000 : 14_000;
    writeFileSync(join(directory, `module_${file}.py`), sourceText(file, bytes));
  }
  git(["add", "-A"], repo);
  git(["commit", "-q", "-m", "initial tree"], repo);
  for (let commit = 1; commit < 40; commit += 1) {
    for (let change = 0; change < 5; change += 1) {
      const file = (commit * 7 + change * 13) % 3400;
      writeFileSync(
        join(repo, `package_${file % 120}`, `module_${file}.py`),
        sourceText(file + commit * 10_000, 14_000),
      );
    }
    git(["commit", "-q", "-am", `change ${commit}`], repo);
  }
  return { mirror, repo: "bench/large", remove: () => rmSync(mirror, { recursive: true, force: true }) };
}

/** The checkout every workspace made before the templates. */
function previousCheckout(mirrorRepository, commit, directory) {
  git(["init", "-q", directory], tmpdir());
  git(["fetch", "-q", "--depth=1", "--no-tags", `file://${mirrorRepository}`, commit], directory);
  git(["checkout", "-q", "--detach", "FETCH_HEAD"], directory);
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const generated = values.mirror === undefined ? generateMirror() : undefined;
const mirror = values.mirror ?? generated.mirror;
const repo = values.repo ?? generated.repo;
const mirrorRepository = join(mirror, mirrorName(repo));
const commits = git(
  ["rev-list", `--max-count=${commitCount}`, `--skip=${values.skip}`, "HEAD"],
  mirrorRepository,
)
  .trim()
  .split("\n");
const scratch = mkdtempSync(join(tmpdir(), "hs-bench-scratch-"));
const files = Number(git(["ls-tree", "-r", "--name-only", commits[0]], mirrorRepository).split("\n").length);
console.log(`repository ${repo}: ${files} files at ${commits[0].slice(0, 10)}; ${commits.length} commits`);

const before = [];
for (const commit of commits) {
  for (let repeat = 0; repeat < repeats; repeat += 1) {
    const directory = join(scratch, `before-${commit.slice(0, 8)}-${repeat}`);
    const began = performance.now();
    previousCheckout(mirrorRepository, commit, directory);
    before.push(performance.now() - began);
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Workspaces of every commit from one runtime: the first of a commit builds its template. */
async function measure(layering) {
  const runtime = createLocalRuntime({ mirrorDirectory: mirror, scratchDirectory: scratch, layering });
  const builds = [];
  const later = [];
  for (const commit of commits) {
    for (let repeat = 0; repeat < repeats + 1; repeat += 1) {
      const began = performance.now();
      const workspace = await runtime.createWorkspace({ instanceId: "bench", repo, baseCommit: commit });
      (repeat === 0 ? builds : later).push(performance.now() - began);
      const check = await workspace.run("git rev-parse HEAD && git status --porcelain | wc -l");
      if (check.output.trim() !== `${commit}\n0`)
        throw new Error(`a workspace is not a clean checkout: ${check.output}`);
      await workspace.close();
    }
  }
  return { builds, later };
}

const overlay = await measure("auto");
const copied = await measure("copy");
rmSync(scratch, { recursive: true, force: true });
generated?.remove();

const format = (ms) => `${Math.round(ms)} ms`;
const line = (label, values) =>
  console.log(`${label.padEnd(58)} mean ${format(mean(values))} of ${values.length}`);
line("before  fetch --depth=1 + checkout, every workspace", before);
line("after   first workspace of a commit (template build)", [...overlay.builds, ...copied.builds]);
line("after   later workspaces, overlay mount (auto, as root)", overlay.later);
line("after   later workspaces, copy (layering: copy)", copied.later);
console.log(
  `ratio   before / after: overlay ${(mean(before) / mean(overlay.later)).toFixed(1)}x, copy ${(mean(before) / mean(copied.later)).toFixed(1)}x`,
);
