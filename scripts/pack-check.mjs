// Packs every public workspace package with `pnpm pack`, installs each from its tarball (with the tarballs
// of the @hs packages it depends on, which are not on a registry) into an empty npm project of its own,
// and runs the package's smoke script there (scripts/pack-smoke/<name>.mjs). Prints one line per package
// and "N passed, N failed". Usage: node scripts/pack-check.mjs [--result=FILE] [package-dir-name...]
// (--result writes {passed, failed, failures} as JSON, which scripts/test-summary.mjs adds to its total).
// Install scripts are skipped: the one native addon (better-sqlite3) would be compiled again for every
// project (minutes on 2 cores, as no prebuilt binary can be downloaded here), so its build output is
// copied from the same version that `pnpm install` compiled for the workspace.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { copyFile, cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
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

async function check(entry, tarballs, byName) {
  const smoke = join(smokeDirectory, `${entry.name.replace("@hs/", "")}.mjs`);
  if (!existsSync(smoke)) return { ok: false, detail: `no smoke script ${smoke}` };
  const project = await mkdtemp(join(tmpdir(), "hs-pack-"));
  try {
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ name: "smoke", private: true, type: "module" }),
    );
    const needed = [entry.name, ...hsDependencies(entry, byName)].map((name) => tarballs.get(name));
    const started = Date.now();
    await run(
      "npm",
      ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", ...needed],
      {
        cwd: project,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    await copyNativeBuilds(project);
    const installed = Date.now() - started;
    await copyFile(smoke, join(project, "smoke.mjs"));
    const smokeStarted = Date.now();
    const { stdout } = await run(process.execPath, ["smoke.mjs"], { cwd: project, timeout: 120_000 });
    const seconds = (milliseconds) => (milliseconds / 1000).toFixed(milliseconds < 10_000 ? 1 : 0);
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

const resultArgument = process.argv.slice(2).find((argument) => argument.startsWith("--result="));
const resultFile =
  resultArgument === undefined ? undefined : resolve(resultArgument.slice("--result=".length));
const only = process.argv.slice(2).filter((argument) => !argument.startsWith("--result="));
const all = workspacePackages();
const byName = new Map(all.map((entry) => [entry.name, entry]));
const selected =
  only.length === 0 ? all : all.filter((entry) => only.some((name) => entry.directory.endsWith(`/${name}`)));
const unknown = only.filter((name) => !all.some((entry) => entry.directory.endsWith(`/${name}`)));
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
const queue = [...selected];
await Promise.all(
  Array.from({ length: workers }, async () => {
    for (let entry = queue.shift(); entry !== undefined; entry = queue.shift()) {
      const result = await check(entry, tarballs, byName);
      if (result.ok) passed += 1;
      else {
        failed += 1;
        failures.push({ name: entry.name, detail: result.detail });
      }
      console.log(`pack-check: ${result.ok ? "ok  " : "FAIL"} ${entry.name}: ${result.detail}`);
    }
  }),
);
await rm(destination, { recursive: true, force: true });
console.log(`pack-check: ${passed} passed, ${failed} failed`);
if (resultFile !== undefined)
  await writeFile(resultFile, JSON.stringify({ passed, failed, failures }, null, 2));
process.exit(failed === 0 ? 0 : 1);
