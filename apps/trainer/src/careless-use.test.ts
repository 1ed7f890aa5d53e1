// hs under careless use, nothing silently lost or mixed: one test per way a run could be lost or mixed
// (concurrent runs, resumes with changed inputs, clobbered outputs, late failures, silent wrong results,
// silent LLM servers, unclear errors), each from the commands a user would type.
// CLI runs go through main() in process, or through the built dist/cli.js where two processes or a
// kill are needed (run `pnpm build` first).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "./main.js";

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, "../dist/cli.js");
const fixtures = join(here, "__fixtures__", "bad-inputs");
const dev = readFileSync(join(here, "../../../packages/benchmarks-dbbench/data/dev.jsonl"), "utf8").split(
  "\n",
);
const world = await mkdtemp(join(tmpdir(), "hs-careless-use-"));
const four = join(world, "four.jsonl");
const otherFour = join(world, "other-four.jsonl");
writeFileSync(four, `${dev.slice(40, 44).join("\n")}\n`);
writeFileSync(otherFour, `${dev.slice(44, 48).join("\n")}\n`);
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
  "--seed",
  "5",
  "--out",
  out,
  ...extra,
];

async function hs(args: string[]) {
  let stdout = "";
  let stderr = "";
  const started = Date.now();
  const code = await main(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr, ms: Date.now() - started };
}

function spawnHs(args: string[]) {
  const child: ChildProcess = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk) => (stderr += chunk));
  child.stdout?.resume();
  const exit = new Promise<{ code: number | null; signal: string | null; stderr: string }>((done) =>
    child.on("close", (code, signal) => done({ code, signal, stderr })),
  );
  return { child, exit };
}

async function waitFor(condition: () => boolean, timeoutMs = 60_000) {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const lines = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** A run directory holds each step once and each trajectory id once, as its checkpoint says. */
function expectIntactRun(run: string, steps: number, rollouts: number) {
  expect(lines(join(run, "metrics.jsonl")).map((row) => row.step)).toEqual(
    Array.from({ length: steps }, (_, step) => step),
  );
  const ids = lines(join(run, "trajectories.jsonl")).map((row) => row.id);
  expect(ids.length).toBe(rollouts);
  expect(new Set(ids).size).toBe(rollouts);
  const pointer = JSON.parse(readFileSync(join(run, "checkpoints", "latest.json"), "utf8"));
  expect(pointer.step).toBe(steps);
  expect(existsSync(join(run, ".hs-run.lock"))).toBe(false);
}

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((done) => server.close(done)))));
async function startServer(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe("hs under careless use: nothing silently lost or mixed", () => {
  it("two hs train on one directory: the second is refused, the first's run stays intact", async () => {
    const run = join(world, "two-writers");
    const first = spawnHs(train(run, "--budget", "40"));
    await waitFor(() => existsSync(join(run, ".hs-run.lock")));
    // the first writer is paused while the second starts, so it is surely mid-run when the second
    // looks at the directory (a second process takes seconds to start on a loaded machine)
    first.child.kill("SIGSTOP");
    const second = spawnHs(train(run, "--budget", "40"));
    const refused = await second.exit;
    first.child.kill("SIGCONT");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(`is in use: "hs train --method grpo --seed 5" \\(pid ${first.child.pid} `),
    );
    const done = await first.exit;
    expect(done.code, done.stderr).toBe(0);
    expectIntactRun(run, 5, 40);
  }, 90_000);

  it("a run killed after a step does not resume with another harness, data file or config", async () => {
    const run = join(world, "killed");
    const started = spawnHs(train(run, "--budget", "64"));
    await waitFor(() => existsSync(join(run, "checkpoints", "latest.json")));
    started.child.kill("SIGKILL");
    expect((await started.exit).signal).toBe("SIGKILL");
    const harness = await hs([
      ...train(run, "--budget", "64"),
      "--harness",
      join(fixtures, "harness-same-id-other-prompt.json"),
    ]);
    expect(harness.code).toBe(1);
    expect(harness.stderr).toMatch(/taking over a stale lock: pid \d+/);
    expect(harness.stderr).toMatch(
      /an input changed since the run started: harness \(dbbench-v0\.2-base sha256:\w+ when the run started, dbbench-v0\.2-base sha256:\w+ now\)/,
    );
    const data = await hs(train(run, "--budget", "64").map((word) => (word === four ? otherFour : word)));
    expect(data.code).toBe(1);
    expect(data.stderr).toMatch(
      /2 inputs changed since the run started: data \(sha256:\w+ when the run started, sha256:\w+ now\); tasks \(4 tasks sha256:\w+ when the run started, 4 tasks sha256:\w+ now\)/,
    );
    const pool = await hs([...train(run, "--budget", "64"), "--pool", join(fixtures, "pool-good.json")]);
    expect(pool.stderr).toMatch(/pool \(none when the run started, sha256:\w+ now\)/);
    const resumed = await hs(train(run, "--budget", "64"));
    expect(resumed.code, resumed.stderr).toBe(0);
    expectIntactRun(run, 8, 64);
  }, 120_000);

  it("outputs never clobber: empty --out, a directory of foreign files, an output equal to an input", async () => {
    expect((await hs(["train", "--bench", "dbbench", "--method", "grpo", "--out="])).code).toBe(2);
    const foreign = join(world, "foreign");
    await mkdir(foreign);
    await writeFile(join(foreign, "metrics.jsonl"), '{"another":"experiment"}\n');
    await writeFile(join(foreign, "trajectories.jsonl"), '{"kept":true}\n');
    const refused = await hs(train(foreign, "--budget", "8"));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "holds files this run did not write (metrics.jsonl, trajectories.jsonl)",
    );
    expect(readdirSync(foreign).sort()).toEqual(["metrics.jsonl", "trajectories.jsonl"]);
    expect(readFileSync(join(foreign, "metrics.jsonl"), "utf8")).toBe('{"another":"experiment"}\n');
    const before = readFileSync(four, "utf8");
    const evaluation = await hs(["eval", "--bench", "dbbench", "--data", four, "--trajectories", four]);
    expect(evaluation.code).toBe(2);
    expect(evaluation.stderr).toMatch(/is also the input --data \S+: it would overwrite its own input/);
    expect(readFileSync(four, "utf8")).toBe(before);
    const poolFile = join(world, "pool.json");
    writeFileSync(poolFile, readFileSync(join(fixtures, "pool-good.json")));
    const profile = await hs(["profile", "--pool", poolFile, "--policy", "embedded", "--out", poolFile]);
    expect(profile.code).toBe(2);
    expect(readFileSync(poolFile, "utf8")).toBe(readFileSync(join(fixtures, "pool-good.json"), "utf8"));
  }, 60_000);

  it("unwritable or missing output directories and unknown methods fail before any work", async () => {
    const cases = [
      ["evolve", "--bench", "dbbench", "--data", four, "--out", "/proc/hs-evolve/pool.json"],
      [
        "profile",
        "--pool",
        join(fixtures, "pool-good.json"),
        "--policy",
        "embedded",
        "--out",
        "/proc/profiles.json",
      ],
      ["eval", "--bench", "dbbench", "--data", four, "--trajectories", join(world, "missing", "t.jsonl")],
      ["quickstart", "--methods", "grpo,ppo", "--out", join(world, "quickstart")],
    ];
    for (const args of cases) {
      const result = await hs(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).not.toMatch(/^(evolve: base run|profile: |eval: \d|\[quickstart)/m);
      expect(result.ms).toBeLessThan(2000);
    }
    expect(existsSync(join(world, "quickstart"))).toBe(false);
  });

  it("no silent wrong results: short budgets, missing experiments, stripped keys, bad groups, foreign pools", async () => {
    const short = join(world, "short");
    const budget = await hs(train(short, "--budget", "3"));
    expect(budget.code).toBe(2);
    expect(budget.stderr).toContain("--budget 3 is smaller than one step");
    expect(existsSync(short)).toBe(false);
    const report = await hs(["report", "/nonexistent", "--out", join(world, "report")]);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain("experiment directory /nonexistent does not exist");
    expect(existsSync(join(world, "report"))).toBe(false);
    const refusedInputs: [string, string, RegExp][] = [
      [
        "--harness",
        "harness-misspelled-key.json",
        /unknown key "emptyResults" \(did you mean "emptyResult"\?\)/,
      ],
      ["--harness", "harness-unknown-section.json", /unknown key "retries"/],
      ["--harness", "harness-bad-capture-group.json", /capture group 2 does not exist/],
    ];
    for (const [option, file, message] of refusedInputs) {
      const result = await hs(["eval", "--bench", "dbbench", "--data", four, option, join(fixtures, file)]);
      expect(result.code, file).toBe(1);
      expect(result.stderr).toMatch(message);
    }
    const rescue = (run: string, ...extra: string[]) =>
      train(run, "--budget", "8", "--pool", join(fixtures, "pool-good.json"), ...extra).map((word) =>
        word === "grpo" ? "harness-s" : word,
      );
    for (const file of ["pool-stale-hash.json", "pool-other-benchmark.json", "pool-id-mismatch.json"]) {
      const good = join(fixtures, "pool-good.json");
      const other = rescue(join(world, file)).map((word) => (word === good ? join(fixtures, file) : word));
      const result = await hs(other);
      expect(result.code, file).toBe(1);
      expect(result.stderr).toContain(file);
    }
    const mismatched = await hs(
      rescue(join(world, "mismatch"), "--profiles", join(fixtures, "profiles-other-pool.json")),
    );
    expect(mismatched.code).toBe(1);
    expect(mismatched.stderr).toContain('profiles of "sibling-context-3", which the pool does not hold');
    const allowed = await hs(
      rescue(
        join(world, "allowed"),
        "--profiles",
        join(fixtures, "profiles-other-pool.json"),
        "--allow-profile-mismatch",
      ),
    );
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stderr).toContain("warning: ");
    expect(allowed.stderr).toContain('ignoring profiles of "sibling-context-3"');
  }, 90_000);

  it("LLM calls against a silent server time out as set, and every failure is reported and counted", async () => {
    const silent = await startServer((request) => request.resume());
    const failing = await startServer((request, response) => {
      request.resume();
      request.on("end", () => response.writeHead(500).end("internal error"));
    });
    const evolve = (baseURL: string) =>
      hs([
        "evolve",
        "--bench",
        "dbbench",
        "--data",
        four,
        "--tasks",
        "4",
        "--rollouts",
        "1",
        "--generations",
        "1",
        "--candidates",
        "1",
        "--directions",
        "guidance",
        "--llm-model",
        "m",
        "--llm-base-url",
        baseURL,
        "--llm-timeout",
        "200",
        "--llm-retries",
        "1",
        "--out",
        join(world, `evolve-${baseURL.split(":")[2]}`, "pool.json"),
      ]);
    for (const baseURL of [silent, failing]) {
      const result = await evolve(baseURL);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/llm (classifier|proposer): attempt 1 of 2 failed/);
      const reported = result.stderr.split("\n").filter((line) => line.includes(": call failed:"));
      const summary = /evolve: finished with (\d+) failed outbound calls/.exec(result.stderr);
      expect(summary).not.toBeNull();
      expect(reported.length).toBe(Number(summary?.[1]));
      expect(new Set(reported).size).toBe(reported.length);
      expect(result.ms).toBeLessThan(45_000);
    }
    const episodes = join(world, "episodes.jsonl");
    expect((await hs(["eval", "--bench", "dbbench", "--data", four, "--trajectories", episodes])).code).toBe(
      0,
    );
    const routed = await hs([
      "route",
      "--pool",
      join(fixtures, "pool-good.json"),
      "--trajectories",
      episodes,
      "--judge-model",
      "m",
      "--judge-base-url",
      failing,
      "--judge-timeout",
      "500",
      "--judge-retries",
      "0",
    ]);
    expect(routed.code, routed.stderr).toBe(0);
    const judged = routed.stderr.split("\n").filter((line) => line.startsWith("llm judge m: call failed:"));
    expect(judged.length).toBeGreaterThan(0);
    expect(routed.stderr).toContain(`route: finished with ${judged.length} failed outbound call`);
    const alone = await hs([
      "evolve",
      "--bench",
      "dbbench",
      "--out",
      join(world, "p.json"),
      "--llm-base-url",
      silent,
    ]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("--llm-base-url needs --llm-model");
  }, 120_000);

  it("clear errors: BOM, truncated pointer, --hidden 0 before tfjs, a NaN update stops before its checkpoint", async () => {
    const bom = await hs([
      "eval",
      "--bench",
      "dbbench",
      "--data",
      four,
      "--rank1",
      join(fixtures, "pool-bom.json"),
    ]);
    expect(bom.code, bom.stderr).toBe(0);
    const hidden = await spawnHs(train(join(world, "hidden"), "--hidden", "0", "--budget", "8")).exit;
    expect(hidden.code).toBe(2);
    expect(hidden.stderr.split("\n")[0]).toBe(
      "hs train: --hidden expects an integer of at least 1 and at most 4096, got 0",
    );
    expect(hidden.stderr).not.toMatch(/tfjs|backend|Platform/i);
    const run = join(world, "overflow");
    const overflow = await hs(
      train(run, "--budget", "16", "--learning-rate", "1e308").map((w) => (w === "5" ? "0" : w)),
    );
    expect(overflow.code).toBe(1);
    const step = Number(/hs train: step (\d+): the update/.exec(overflow.stderr)?.[1]);
    expect(step).toBeGreaterThanOrEqual(0);
    expect(lines(join(run, "metrics.jsonl")).length).toBe(step);
    if (step > 0) {
      const pointer = JSON.parse(readFileSync(join(run, "checkpoints", "latest.json"), "utf8"));
      expect(pointer.step).toBe(step);
      const weights = readFileSync(join(run, pointer.checkpoint, "policy.json"), "utf8");
      expect(weights).not.toMatch(/null|NaN/);
    }
    expect(existsSync(join(run, "final"))).toBe(false);
    writeFileSync(join(run, "checkpoints", "latest.json"), '{"formatVersion":1,"step"');
    const truncated = await hs(
      train(run, "--budget", "16", "--learning-rate", "1e308").map((w) => (w === "5" ? "0" : w)),
    );
    expect(truncated.code).toBe(1);
    expect(truncated.stderr).toMatch(/checkpoints\/latest\.json: the checkpoint pointer is not valid JSON/);
  }, 60_000);
});
