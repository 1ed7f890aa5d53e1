#!/usr/bin/env node
// Authoring tool for the bundled SWE-Gym-format data (not run by tests or at run time).
// For each repository in data-src/<name>/bugs.mjs: the fixed tree is data/repos/<name>/ (plain files);
// each declared bug is injected into the source (the base commit has it), the gold patch is the
// reverse of the injection (source only), the test patch appends the tests that expose it, and
// FAIL_TO_PASS / PASS_TO_PASS come from running the touched test files with python3 -m pytest -rA
// before and after the gold patch. Writes data/<split>.jsonl. Usage:
//   node scripts/generate-data.mjs [name ...]   (the named repositories; the others keep their instances)
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundledCommitEnvironment, bundledTestCommand, commitMessage } from "./bundled-constants.mjs";

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), "..");
const reposDirectory = join(packageDirectory, "data", "repos");
const sourceDirectory = join(packageDirectory, "data-src");

function run(program, args, cwd, options = {}) {
  return execFileSync(program, args, { cwd, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"], ...options });
}

function tryRun(program, args, cwd) {
  try {
    return run(program, args, cwd);
  } catch (error) {
    return `${error.stdout ?? ""}${error.stderr ?? ""}`;
  }
}

function statuses(log) {
  const map = {};
  for (const line of log.split("\n")) {
    const match = /^(PASSED|FAILED|ERROR|XFAIL|SKIPPED) (\S+)/.exec(line);
    if (match) map[match[2]] = match[1];
  }
  return map;
}

function replaceOnce(text, find, replace, where) {
  const count = text.split(find).length - 1;
  if (count !== 1) throw new Error(`${where}: the text to replace occurs ${count} times`);
  return text.replace(find, () => replace);
}

function diffOf(directory) {
  return run("git", ["diff", "--no-color", "--no-ext-diff"], directory);
}

function buildInstance(name, bug, number) {
  const work = mkdtempSync(join(tmpdir(), "hs-swegym-generate-"));
  try {
    cpSync(join(reposDirectory, name), work, { recursive: true });
    const env = { ...process.env, ...bundledCommitEnvironment(bug.created_at) };
    run("git", ["init", "-q"], work);
    for (const injection of bug.inject) {
      const path = join(work, injection.file);
      writeFileSync(
        path,
        replaceOnce(readFileSync(path, "utf8"), injection.find, injection.replace, `${name} bug ${number}`),
      );
    }
    run("git", ["add", "-A"], work, { env });
    run("git", ["commit", "-q", "-m", commitMessage(name)], work, { env });
    const base = run("git", ["rev-parse", "HEAD"], work).trim();
    cpSync(join(reposDirectory, name), work, { recursive: true });
    const patch = diffOf(work);
    run("git", ["checkout", "-q", "--", "."], work);
    for (const addition of bug.tests) {
      const path = join(work, addition.file);
      writeFileSync(path, `${readFileSync(path, "utf8")}${addition.append}`);
    }
    const testPatch = diffOf(work);
    const testFiles = bug.tests.map((addition) => addition.file);
    const before = statuses(
      tryRun(bundledTestCommand[0], [...bundledTestCommand.slice(1), ...testFiles], work),
    );
    run("git", ["apply", "-"], work, { input: patch });
    const after = statuses(
      tryRun(bundledTestCommand[0], [...bundledTestCommand.slice(1), ...testFiles], work),
    );
    const failToPass = Object.keys(after).filter((id) => after[id] === "PASSED" && before[id] !== "PASSED");
    const passToPass = Object.keys(after).filter((id) => after[id] === "PASSED" && before[id] === "PASSED");
    const broken = Object.keys(after).filter((id) => after[id] !== "PASSED");
    if (failToPass.length === 0) throw new Error(`${name} bug ${number}: no test fails before the fix`);
    if (broken.length > 0)
      throw new Error(`${name} bug ${number}: tests fail after the fix: ${broken.join(", ")}`);
    return {
      repo: `harness-s/${name}`,
      instance_id: `harness-s__${name}-${number}`,
      base_commit: base,
      patch,
      test_patch: testPatch,
      problem_statement: bug.problem_statement.trim(),
      hints_text: (bug.hints_text ?? "").trim(),
      created_at: bug.created_at,
      version: "1.0",
      FAIL_TO_PASS: failToPass.sort(),
      PASS_TO_PASS: passToPass.sort(),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const only = process.argv.slice(2);
const previous = {};
for (const split of ["train", "heldout", "heldout-repos"]) {
  const file = join(packageDirectory, "data", `${split}.jsonl`);
  if (!existsSync(file)) continue;
  for (const line of readFileSync(file, "utf8").split("\n").filter(Boolean)) {
    const instance = JSON.parse(line);
    if (previous[instance.repo] === undefined) previous[instance.repo] = [];
    previous[instance.repo].push({ split, instance });
  }
}
const bySplit = {};
function pushTo(map, key, value) {
  if (map[key] === undefined) map[key] = [];
  map[key].push(value);
}
for (const name of readdirSync(sourceDirectory).sort()) {
  if (only.length > 0 && !only.includes(name)) {
    for (const { split, instance } of previous[`harness-s/${name}`] ?? []) pushTo(bySplit, split, instance);
    continue;
  }
  const { bugs, split: repoSplit } = await import(
    pathToFileURL(join(sourceDirectory, name, "bugs.mjs")).href
  );
  for (const [index, bug] of bugs.entries()) {
    const split = repoSplit ?? bug.split;
    const instance = buildInstance(name, bug, index + 1);
    pushTo(bySplit, split, instance);
    process.stderr.write(
      `${instance.instance_id} [${split}] F2P ${instance.FAIL_TO_PASS.length} P2P ${instance.PASS_TO_PASS.length}\n`,
    );
  }
}
for (const [split, instances] of Object.entries(bySplit)) {
  writeFileSync(
    join(packageDirectory, "data", `${split}.jsonl`),
    `${instances.map((i) => JSON.stringify(i)).join("\n")}\n`,
  );
  process.stderr.write(`${split}: ${instances.length} instances\n`);
}
