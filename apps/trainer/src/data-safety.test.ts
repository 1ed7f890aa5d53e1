import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "./main.js";
import { lockFileName, processStartTicks } from "./run-lock.js";

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, "__fixtures__", "bad-inputs");
const cli = join(here, "..", "dist", "cli.js");
const devFile = join(here, "../../../packages/benchmarks-dbbench/data/dev.jsonl");
const root = await mkdtemp(join(tmpdir(), "hs-data-safety-"));
const four = join(root, "four.jsonl");
const run = join(root, "run");
const train = (out: string, ...extra: string[]) => [
  "train",
  "--bench",
  "dbbench",
  "--method",
  "grpo",
  "--data",
  four,
  "--group-size",
  "4",
  "--prompts-per-step",
  "2",
  "--budget",
  "8",
  "--out",
  out,
  ...extra,
];

async function hs(args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  writeFileSync(four, `${readFileSync(devFile, "utf8").split("\n").slice(40, 44).join("\n")}\n`);
  const made = await hs(train(run));
  expect(made.code, made.stderr).toBe(0);
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("hs export", () => {
  it("writes no grading detail into any format: the expected hashes and answers stay in the run", async () => {
    const details = readFileSync(join(run, "trajectories.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line).gradeDetails as Record<string, unknown>);
    const secrets = details.flatMap((entry) =>
      [entry.expectedHash, entry.expected]
        .filter((value) => value !== undefined)
        .map((value) => JSON.stringify(value)),
    );
    expect(secrets.length).toBeGreaterThan(0);
    for (const format of ["trl", "trl-prompt", "verl"]) {
      const out = join(root, `export.${format}`);
      const result = await hs(["export", "--run", run, "--format", format, "--out", out]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toContain("warning");
      const text = readFileSync(out).toString("latin1");
      expect(text).not.toContain("gradeDetails");
      for (const secret of secrets) expect(text).not.toContain(secret.replace(/^"|"$/g, ""));
    }
  }, 30_000);

  it("warns when the run never finished (no final/)", async () => {
    const unfinished = join(root, "unfinished");
    cpSync(run, unfinished, { recursive: true });
    rmSync(join(unfinished, "final"), { recursive: true });
    const result = await hs([
      "export",
      "--run",
      unfinished,
      "--format",
      "trl",
      "--out",
      join(root, "u.jsonl"),
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warning: .*unfinished has no final\/ \(the run did not finish\)/);
  });

  it("exports a run that is still training only with --allow-partial, and says so", async () => {
    const running = join(root, "running");
    cpSync(run, running, { recursive: true });
    const lock = {
      pid: process.pid,
      startedAt: new Date().toISOString(),
      host: hostname(),
      processStart: processStartTicks(process.pid),
      command: "hs train --method grpo --seed 0",
    };
    await writeFile(join(running, lockFileName), JSON.stringify(lock));
    const out = join(root, "p.jsonl");
    const refused = await hs(["export", "--run", running, "--format", "trl", "--out", out]);
    expect(refused.code).toBe(1);
    expect(existsSync(out)).toBe(false);
    const allowed = await hs([
      "export",
      "--run",
      running,
      "--format",
      "trl",
      "--out",
      out,
      "--allow-partial",
    ]);
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toContain("is still training (--allow-partial)");
  });

  it("on a full disk keeps the old file, leaves no temporary file and names the path (real ENOSPC, tmpfs)", () => {
    const mount = join(root, "full");
    const script = [
      `mkdir -p ${mount}`,
      `mount -t tmpfs -o size=256k tmpfs ${mount}`,
      `echo old > ${mount}/e.jsonl`,
      `dd if=/dev/zero of=${mount}/filler bs=4k 2>/dev/null`,
      `"${process.execPath}" ${cli} export --run ${run} --format trl --out ${mount}/e.jsonl; echo "exit=$?"`,
      `echo "content=$(cat ${mount}/e.jsonl)"`,
      `ls -a ${mount}`,
    ].join("; ");
    // a private mount namespace (unshare -r -m) mounts a 256 KiB tmpfs without touching the host
    const result = spawnSync("unshare", ["-r", "-m", "sh", "-c", script], { encoding: "utf8" });
    expect(result.error, "unshare -r -m is needed to mount a small tmpfs").toBeUndefined();
    expect(result.stdout).toContain("exit=1");
    expect(result.stderr).toContain(
      `cannot write ${mount}/e.jsonl (ENOSPC: no space left on the device); nothing was replaced`,
    );
    expect(result.stdout).toContain("content=old");
    expect(result.stdout.split("\n").filter((line) => line.endsWith(".tmp"))).toEqual([]);
  }, 60_000);
});

describe("hs train", () => {
  it("a disk that fills during the first step names --out; once space is freed the same command runs", () => {
    const mount = join(root, "full-train");
    const command = [process.execPath, cli, ...train(`${mount}/run`)].join(" ");
    const script = [
      `mkdir -p ${mount}`,
      `mount -t tmpfs -o size=32k tmpfs ${mount}`,
      `${command}; echo "exit=$?"`,
      `echo "left=[$(ls -A ${mount}/run)]"`,
      `mount -o remount,size=4m ${mount}`,
      `${command} >/dev/null 2>&1; echo "rerun=$?"`,
    ].join("; ");
    const result = spawnSync("unshare", ["-r", "-m", "sh", "-c", script], { encoding: "utf8" });
    expect(result.error, "unshare -r -m is needed to mount a small tmpfs").toBeUndefined();
    expect(result.stdout).toContain("exit=1");
    expect(result.stderr).toContain(
      `ENOSPC: no space left on device, write while writing --out ${mount}/run`,
    );
    expect(result.stdout).toContain("left=[]");
    expect(result.stdout).toContain("rerun=0");
  }, 60_000);

  it("a start that fails claims nothing: the corrected command runs in the same directory", async () => {
    const out = join(root, "failed-start");
    const failed = await hs(
      train(
        out,
        "--policy",
        "tinker:m",
        "--tinker-url",
        "http://127.0.0.1:9",
        "--tokenizer",
        join(root, "none"),
      ),
    );
    expect(failed.code).toBe(1);
    expect(existsSync(join(out, "run-inputs.json"))).toBe(false);
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
    const corrected = await hs(train(out));
    expect(corrected.code, corrected.stderr).toBe(0);
  }, 60_000);
});

describe("hs quickstart", () => {
  const quickstart = (out: string, ...extra: string[]) => [
    "quickstart",
    "--out",
    out,
    "--splits",
    "dev",
    "--seeds",
    "1",
    ...extra,
  ];

  it("stops on a kept stage output that is cut short, and never says kept for it", async () => {
    const out = join(root, "cut-pool");
    await mkdir(out);
    writeFileSync(
      join(out, "pool.json"),
      readFileSync(join(fixtures, "pool-good.json"), "utf8").slice(0, 200),
    );
    const result = await hs(quickstart(out));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /evolve: the kept .*pool\.json is not a usable pool .*delete it to run evolve again/,
    );
    expect(result.stderr).not.toContain("evolve: kept");
  });

  it("refuses to resume with other stage settings, naming the setting", async () => {
    const out = join(root, "settings");
    await mkdir(out);
    cpSync(join(fixtures, "pool-good.json"), join(out, "pool.json"));
    writeFileSync(join(out, "profiles.json"), "{");
    const first = await hs(quickstart(out, "--generations", "3"));
    expect(first.code).toBe(1);
    expect(first.stderr).toContain("evolve: kept");
    expect(first.stderr).toMatch(/profile: the kept .*profiles\.json is not a usable profile set/);
    const changed = await hs(quickstart(out, "--generations", "5"));
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain("--generations (evolve): 3 when the experiment started, 5 now");
  });

  it("holds an experiment lock: a second quickstart on the same --out is refused", async () => {
    const out = join(root, "locked");
    await mkdir(out);
    const lock = {
      pid: process.pid,
      startedAt: new Date().toISOString(),
      host: hostname(),
      processStart: processStartTicks(process.pid),
      command: "hs quickstart",
    };
    await writeFile(join(out, lockFileName), JSON.stringify(lock));
    const second = await hs(quickstart(out));
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/is in use: "hs quickstart" \(pid \d+/);
    expect(readdirSync(out)).toEqual([lockFileName]);
  });
});

describe("hs evolve --data", () => {
  it("records the file and its split, not the benchmark's default training split", async () => {
    const out = join(root, "evolved", "pool.json");
    const result = await hs([
      "evolve",
      "--bench",
      "dbbench",
      "--data",
      four,
      "--rollouts",
      "1",
      "--generations",
      "0",
      "--out",
      out,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("tasks of four");
    const report = JSON.parse(readFileSync(join(root, "evolved", "pool.evolution.json"), "utf8"));
    expect(report).toMatchObject({ split: "four", data: four });
  }, 60_000);
});
