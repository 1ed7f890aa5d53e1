import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, linkSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { type BadInputCase, badInputCases, templateTrainArguments } from "./__fixtures__/bad-input-cases.js";
import { main } from "./main.js";
import { lockFileName, processStartTicks } from "./run-lock.js";

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, "__fixtures__", "bad-inputs");
const devFile = join(here, "../../../packages/benchmarks-dbbench/data/dev.jsonl");
const root = await mkdtemp(join(tmpdir(), "hs-bad-inputs-"));
const template = join(root, "template-run");

async function hs(args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

/** Path -> content hash of every file under `directory` (directories as entries too). */
function snapshot(directory: string, skip: string | null): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (path: string) => {
    if (skip !== null && path === skip) return;
    const info = statSync(path);
    if (info.isDirectory()) {
      files.set(`${relative(directory, path)}/`, "directory");
      for (const name of readdirSync(path)) walk(join(path, name));
    } else {
      files.set(relative(directory, path), createHash("sha256").update(readFileSync(path)).digest("hex"));
    }
  };
  walk(directory);
  return files;
}

function writeScratchData(world: string) {
  const four = `${readFileSync(devFile, "utf8").split("\n").slice(40, 44).join("\n")}\n`;
  writeFileSync(join(world, "four.jsonl"), four);
  linkSync(join(world, "four.jsonl"), join(world, "four-link.jsonl"));
  writeFileSync(join(world, "bom.jsonl"), `\uFEFF${four}`);
  const lines = readFileSync(join(template, "trajectories.jsonl"), "utf8").split("\n").slice(0, 4);
  const last = lines[3] ?? "";
  writeFileSync(
    join(world, "cut-trajectories.jsonl"),
    `${lines.slice(0, 3).join("\n")}\n${last.slice(0, last.length / 2)}`,
  );
}

async function prepareRun(run: string, setup: BadInputCase["setup"]) {
  if (setup === undefined) return;
  if (setup === "foreign-files") {
    await mkdir(run, { recursive: true });
    await writeFile(join(run, "metrics.jsonl"), '{"mine":true}\n');
    await writeFile(join(run, "trajectories.jsonl"), '{"also":"mine"}\n');
    await writeFile(join(run, "notes.txt"), "results of another experiment\n");
    return;
  }
  cpSync(template, run, { recursive: true });
  const lock = (pid: number, processStart: number | null) =>
    writeFile(
      join(run, lockFileName),
      JSON.stringify({
        pid,
        startedAt: "2026-12-01T20:00:00.000Z",
        host: hostname(),
        processStart,
        command: "hs train --method grpo --seed 3",
      }),
    );
  if (setup === "live-lock") await lock(process.pid, processStartTicks(process.pid));
  if (setup === "stale-lock") {
    const finished = spawnSync(process.execPath, ["-e", ""]);
    await lock(finished.pid ?? 999_999, null);
  }
  if (setup === "truncated-latest") {
    const pointer = join(run, "checkpoints", "latest.json");
    writeFileSync(pointer, readFileSync(pointer, "utf8").slice(0, 40));
  }
  if (setup === "corrupt-config") {
    const config = join(run, "config.json");
    writeFileSync(config, readFileSync(config, "utf8").slice(0, 30));
  }
  if (setup === "corrupt-checkpoint")
    writeFileSync(
      join(run, "checkpoints", "step-00001", "policy.json"),
      '{"format":"hs-embedded-policy","param',
    );
}

beforeAll(async () => {
  const world = join(root, "template-world");
  await mkdir(world);
  writeFileSync(
    join(world, "four.jsonl"),
    `${readFileSync(devFile, "utf8").split("\n").slice(40, 44).join("\n")}\n`,
  );
  const args = templateTrainArguments.map((word) => word.replace("@W", world));
  const made = await hs([...args, "--out", template]);
  expect(made.code, made.stderr).toBe(0);
}, 60_000);

describe(`the bad-input corpus (${badInputCases.length} kinds)`, () => {
  it("gives each its exit status and message and changes no file outside the run directory", async () => {
    expect(badInputCases.length).toBeGreaterThanOrEqual(35);
    expect(new Set(badInputCases.map((entry) => entry.name)).size).toBe(badInputCases.length);
    const failures: string[] = [];
    for (const entry of badInputCases) {
      const world = join(root, entry.name);
      cpSync(fixtures, join(world, "fixtures"), { recursive: true });
      writeScratchData(world);
      const run = join(world, "run");
      await prepareRun(run, entry.setup);
      const before = snapshot(world, entry.writesRun === true ? run : null);
      const args = entry.args.map((word) =>
        word.replace("@F", join(world, "fixtures")).replace("@W", world).replace("@R", run),
      );
      const { code, stderr } = await hs(args);
      const after = snapshot(world, entry.writesRun === true ? run : null);
      const problems = [
        code === entry.code ? null : `exit ${code}, expected ${entry.code}`,
        entry.message.test(stderr) ? null : `message ${entry.message} not in stderr`,
        entry.absent?.test(stderr) === true ? `stderr holds ${entry.absent}` : null,
        JSON.stringify([...before]) === JSON.stringify([...after])
          ? null
          : "files outside the run directory changed",
      ].filter((problem) => problem !== null);
      if (problems.length > 0)
        failures.push(`${entry.name}: ${problems.join("; ")}\n  stderr: ${stderr.slice(0, 400)}`);
      await rm(world, { recursive: true, force: true });
    }
    expect(failures.join("\n")).toBe("");
  }, 240_000);
});
