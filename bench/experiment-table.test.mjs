// node --test bench/experiment-table.test.mjs
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";

const directory = mkdtempSync(join(tmpdir(), "hs-experiment-table-"));
after(() => rmSync(directory, { recursive: true, force: true }));
const script = join(import.meta.dirname, "experiment-table.mjs");
const table = (...args) => spawnSync(process.execPath, [script, directory, ...args], { encoding: "utf8" });

writeFileSync(
  join(directory, "results.json"),
  JSON.stringify({
    wall_seconds: 1,
    seeds: [1, 2],
    heldout_splits: ["test"],
    heldout_by_split: { test: { grpo: [0.1, 0.2], "harness-s": [0.1, 0.1] } },
  }),
);
const arm = join(directory, "credit");
for (const [seed, success, credited] of [
  [1, 0.3, [2, 3]],
  [2, 0.4, [0]],
]) {
  mkdirSync(join(arm, `seed-${seed}`), { recursive: true });
  writeFileSync(join(arm, `seed-${seed}`, "eval-test.json"), JSON.stringify({ success }));
  const lines = credited.map((steps, step) =>
    JSON.stringify({
      step,
      rolloutsRescue: 8,
      rescue: { attempts: 1, successes: step, gated: seed, creditedSteps: steps },
    }),
  );
  writeFileSync(join(arm, `seed-${seed}`, "metrics.jsonl"), `${lines.join("\n")}\n`);
}

for (const seed of [1, 2]) {
  const run = join(directory, "runs", "harness-s", `seed-${seed}`);
  mkdirSync(run, { recursive: true });
  writeFileSync(
    join(run, "metrics.jsonl"),
    `${JSON.stringify({ step: 0, rolloutsRescue: 8 * seed, rescue: { attempts: seed } })}\n`,
  );
}

it("adds an arm's test figures per seed, compares it with GRPO and Harness-S, and sums its rescue counters", () => {
  const { stdout, status } = table("--arm", `credit=${arm}`);
  assert.equal(status, 0);
  assert.match(stdout, /\| credit \| 0\.300 \| 0\.400 \| 0\.350 \| 0\.071 \|/);
  assert.match(stdout, /credit - grpo: 0\.200 \(Welch t 2\.83\)/);
  assert.match(stdout, /credit - harness-s: 0\.250 \(Welch t 5\.00\)/);
  assert.match(
    stdout,
    /harness-s, per seed: rescues 1, 2; their rollouts 8, 16; groups saved 0, 0; held back by the gate 0, 0/,
  );
  assert.match(
    stdout,
    /credit, per seed: rescues 2, 1; their rollouts 16, 8; groups saved 1, 0; held back by the gate 2, 2; harness-call steps credited 5, 0/,
  );
});

it("names the missing evaluation of an arm and exits 1", () => {
  rmSync(join(arm, "seed-2", "eval-test.json"));
  const { stderr, status } = table("--arm", `credit=${arm}`);
  assert.equal(status, 1);
  assert.match(stderr, /seed-2\/eval-test\.json: missing/);
  assert.equal(table("--arm", "credit").status, 2);
});

it("names a metrics line that is not JSON, with its file and line, and exits 1", () => {
  writeFileSync(join(arm, "seed-2", "eval-test.json"), JSON.stringify({ success: 0.4 }));
  writeFileSync(join(arm, "seed-1", "metrics.jsonl"), '{"step":0}\n{"step":1,\n');
  const { stderr, status } = table("--arm", `credit=${arm}`);
  assert.equal(status, 1);
  assert.match(stderr, /seed-1\/metrics\.jsonl:2: not a JSON line/);
});
