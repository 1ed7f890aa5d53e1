// Packs every public workspace package with `pnpm pack`, installs each from its tarball (with the tarballs
// of the @hs packages it depends on, which are not on a registry) into an empty npm project of its own,
// and runs the package's smoke script there (scripts/pack-smoke/<name>.mjs). Prints one line per package
// and "N passed, N failed". Usage: node scripts/pack-check.mjs [--result=FILE] [package-dir-name...]
// (--result writes {passed, failed, failures} as JSON, which scripts/test-summary.mjs adds to its total).
// It also runs the root README's "Use one package alone" example as the README gives it: the packages its
// `for name in ...` loop names must be the example's whole @hs closure, exactly those tarballs are
// installed into an empty npm project, and the README's code block is run there (select it alone with
// the argument `readme`).
// Install scripts are skipped: the one native addon (better-sqlite3) would be compiled again for every
// project (minutes on 2 cores, as no prebuilt binary can be downloaded here), so its build output is
// copied from the same version that `pnpm install` compiled for the workspace.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { copyFile, cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "..");
const smokeDirectory = join(root, "scripts", "pack-smoke");
const workers = 2;

function workspacePackages() {
  const directory = join(root, "packages");
  return readdirSync(directory)
    .filter((name) => existsSync(join(directory, name, "package.json")))
    .map((name) => {
      const manifest = JSON.parse(readFileSync(join(directory, name, "package.json"), "utf8"));
      return { directory: join(directory, name), name: manifest.name, manifest };
    })
    .filter((entry) => entry.manifest.private !== true);
}

function hsDependencies(entry, byName, seen = new Set()) {
  for (const dependency of Object.keys(entry.manifest.dependencies ?? {})) {
    const found = byName.get(dependency);
    if (found === undefined || seen.has(dependency)) continue;
    seen.add(dependency);
    hsDependencies(found, byName, seen);
  }
  return seen;
}

async function pack(entry, destination) {
  const { stdout } = await run("pnpm", ["pack", "--pack-destination", destination], { cwd: entry.directory });
  const tarball = stdout.trim().split("\n").at(-1).trim();
  return tarball.startsWith("/") ? tarball : join(destination, tarball);
}

function workspaceAddon(name) {
  const store = join(root, "node_modules", ".pnpm");
  const version = readdirSync(store).find((entry) => entry.startsWith(`${name}@`));
  return version === undefined ? undefined : join(store, version, "node_modules", name, "build");
}

async function copyNativeBuilds(project) {
  const installed = join(project, "node_modules", "better-sqlite3");
  const built = workspaceAddon("better-sqlite3");
  if (existsSync(installed) && built !== undefined)
    await cp(built, join(installed, "build"), { recursive: true });
}

// The end of a failed command's stderr without stack frames and Node's version line, so that the error
// message itself is shown (a thrown error's message sits above its frames, which the last lines alone
// would keep instead).
function failureDetail(error) {
  if (error.killed === true) return `smoke script killed (${error.signal}) at the 120 s limit`;
  const lines = String(error.stderr || error.message)
    .split("\n")
    .filter((line) => line.trim() !== "" && !/^\s+at /.test(line) && !/^Node\.js v/.test(line));
  return lines.slice(-6).join(" | ");
}

const seconds = (milliseconds) => (milliseconds / 1000).toFixed(milliseconds < 10_000 ? 1 : 0);

/** Installs exactly `tarballs` into an empty npm project, writes `script` there as smoke.mjs and runs it. */
async function installAndRun(tarballs, writeScript) {
  const project = await mkdtemp(join(tmpdir(), "hs-pack-"));
  try {
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ name: "smoke", private: true, type: "module" }),
    );
    const started = Date.now();
    await run(
      "npm",
      ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", ...tarballs],
      { cwd: project, maxBuffer: 64 * 1024 * 1024 },
    );
    await copyNativeBuilds(project);
    const installed = Date.now() - started;
    await writeScript(join(project, "smoke.mjs"));
    const smokeStarted = Date.now();
    const { stdout } = await run(process.execPath, ["smoke.mjs"], { cwd: project, timeout: 120_000 });
    return {
      ok: true,
      detail: `${stdout.trim().split("\n").at(-1)} (install ${seconds(installed)} s, run ${seconds(Date.now() - smokeStarted)} s)`,
    };
  } catch (error) {
    return { ok: false, detail: failureDetail(error) };
  } finally {
    await rm(project, { recursive: true, force: true });
  }
}

async function check(entry, tarballs, byName) {
  const smoke = join(smokeDirectory, `${entry.name.replace("@hs/", "")}.mjs`);
  if (!existsSync(smoke)) return { ok: false, detail: `no smoke script ${smoke}` };
  const needed = [entry.name, ...hsDependencies(entry, byName)].map((name) => tarballs.get(name));
  return installAndRun(needed, (file) => copyFile(smoke, file));
}

const readmeSection = "## Use one package alone";

/** The README example's package directory names (its `for name in ...; do` loop) and its code block. */
function readmeExample() {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const start = readme.indexOf(`${readmeSection}\n`);
  if (start === -1) throw new Error(`README.md has no section "${readmeSection}"`);
  const end = readme.indexOf("\n## ", start + readmeSection.length);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const loop = /```bash\n[\s\S]*?^for name in ([^;\n]+); do$[\s\S]*?```/m.exec(section);
  if (loop === null)
    throw new Error(
      `README.md, section "${readmeSection}": no \`\`\`bash block with a \`for name in ...; do\` loop`,
    );
  const code = /```ts\n([\s\S]*?)```/.exec(section);
  if (code === null) throw new Error(`README.md, section "${readmeSection}": no \`\`\`ts block`);
  return { directories: loop[1].trim().split(/\s+/), code: code[1] };
}

/** The packages the README loop names, or why they are not exactly a closed set of public packages. */
function readmePackages(directories, byDirectory, byName) {
  const unknown = directories.filter((name) => !byDirectory.has(name));
  if (unknown.length > 0)
    return { problem: `the README loop names ${unknown.join(", ")}, not public packages under packages/` };
  const named = directories.map((name) => byDirectory.get(name));
  const names = new Set(named.map((entry) => entry.name));
  const missing = [...new Set(named.flatMap((entry) => [...hsDependencies(entry, byName)]))].filter(
    (name) => !names.has(name),
  );
  if (missing.length > 0)
    return {
      problem: `the README loop's packages also need ${missing.join(", ")}, which it does not name (add them to its for-loop)`,
    };
  return { names: [...names] };
}

async function checkReadme(tarballs, byName) {
  try {
    const { directories, code } = readmeExample();
    const byDirectory = new Map([...byName.values()].map((entry) => [basename(entry.directory), entry]));
    const { problem, names } = readmePackages(directories, byDirectory, byName);
    if (problem !== undefined) return { ok: false, detail: problem };
    const result = await installAndRun(
      names.map((name) => tarballs.get(name)),
      (file) => writeFile(file, code),
    );
    return { ...result, detail: `${names.length} tarballs; ${result.detail}` };
  } catch (error) {
    return { ok: false, detail: error instanceof Error ? error.message : String(error) };
  }
}

const resultArgument = process.argv.slice(2).find((argument) => argument.startsWith("--result="));
const resultFile =
  resultArgument === undefined ? undefined : resolve(resultArgument.slice("--result=".length));
const only = process.argv.slice(2).filter((argument) => !argument.startsWith("--result="));
const all = workspacePackages();
const byName = new Map(all.map((entry) => [entry.name, entry]));
const selected =
  only.length === 0 ? all : all.filter((entry) => only.some((name) => entry.directory.endsWith(`/${name}`)));
const withReadme = only.length === 0 || only.includes("readme");
const unknown = only.filter(
  (name) => name !== "readme" && !all.some((entry) => entry.directory.endsWith(`/${name}`)),
);
if (unknown.length > 0) {
  console.error(`pack-check: no public package directory named ${unknown.join(", ")} under packages/`);
  process.exit(1);
}
const destination = await mkdtemp(join(tmpdir(), "hs-tarballs-"));
await mkdir(destination, { recursive: true });
const tarballs = new Map();
for (const entry of all) tarballs.set(entry.name, await pack(entry, destination));
let passed = 0;
let failed = 0;
const failures = [];
const queue = [
  ...(withReadme ? [{ name: "README example", run: () => checkReadme(tarballs, byName) }] : []),
  ...selected.map((entry) => ({ name: entry.name, run: () => check(entry, tarballs, byName) })),
];
await Promise.all(
  Array.from({ length: workers }, async () => {
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
      const result = await job.run();
      if (result.ok) passed += 1;
      else {
        failed += 1;
        failures.push({ name: job.name, detail: result.detail });
      }
      console.log(`pack-check: ${result.ok ? "ok  " : "FAIL"} ${job.name}: ${result.detail}`);
    }
  }),
);
await rm(destination, { recursive: true, force: true });
console.log(`pack-check: ${passed} passed, ${failed} failed`);
if (resultFile !== undefined)
  await writeFile(resultFile, JSON.stringify({ passed, failed, failures }, null, 2));
process.exit(failed === 0 ? 0 : 1);
