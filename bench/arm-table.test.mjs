// node --test bench/arm-table.test.mjs
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";

const directory = mkdtempSync(join(tmpdir(), "hs-arm-table-"));
after(() => rmSync(directory, { recursive: true, force: true }));
const script = join(import.meta.dirname, "arm-table.mjs");
const table = (...args) => spawnSync(process.execPath, [script, ...args], { encoding: "utf8" });

function writeRun(arm, seed, success, steps) {
  const run = join(directory, arm, `seed-${seed}`);
  mkdirSync(run, { recursive: true });
  writeFileSync(join(run, "eval-test.json"), JSON.stringify({ success }));
  writeFileSync(join(run, "metrics.jsonl"), `${steps.map((step) => JSON.stringify(step)).join("\n")}\n`);
}
for (const [seed, success] of [
  [3, 0.1],
  [4, 0.2],
]) {
  writeRun("grpo", seed, success, [{ step: 0, rolloutsRescue: 0 }]);
  writeRun("rescue", seed, success + 0.2, [
    {
      step: 0,
      rolloutsRescue: 2,
      rescue: { attempts: 1, successes: seed - 3, "sibling:check:rollouts": 1, "sibling:check:successes": 1 },
    },
    {
      step: 1,
      rolloutsRescue: 2,
      rescue: { attempts: 1, "sibling:hint:rollouts": 2, replays: seed - 2, replaysKept: seed - 3 },
    },
  ]);
}
const arms = ["--arm", `grpo=${join(directory, "grpo")}`, "--arm", `rescue=${join(directory, "rescue")}`];

it("prints every seed, the arm minus the baseline with Welch's t, and the rescue counters", () => {
  const { stdout, status } = table("--seeds", "3-4", ...arms);
  assert.equal(status, 0);
  assert.match(stdout, /\| rescue \| 0\.300 \| 0\.400 \| 0\.350 \| 0\.071 \|/);
  assert.match(stdout, /rescue - grpo: 0\.200 \(Welch t 2\.83\)/);
  assert.match(stdout, /rescue, per seed: rescues 2, 2; their rollouts 4, 4; groups saved 0, 1/);
  assert.match(stdout, /; replays 1, 2, kept 0, 1$/m);
  assert.match(stdout, /check 2 rollouts, 2 successful rollouts; hint 4 rollouts, 0 successful rollouts/);
  assert.match(table("--seeds", "4", ...arms).stdout, /\| grpo \| 0\.200 \| 0\.200 \| 0\.000 \|/);
});

it("stops on a missing or malformed evaluation (exit 1) and on a bad seed list or a lone arm (exit 2)", () => {
  const missing = table("--seeds", "3-5", ...arms);
  assert.equal(missing.status, 1);
  assert.match(
    missing.stderr,
    /grpo\/seed-5\/eval-test\.json: missing \(hs eval --split test --json writes it\)/,
  );
  writeFileSync(join(directory, "grpo", "seed-4", "eval-test.json"), "{ not json");
  const malformed = table("--seeds", "3-4", ...arms);
  assert.equal(malformed.status, 1);
  assert.match(malformed.stderr, /grpo\/seed-4\/eval-test\.json: not JSON/);
  const badSeeds = table("--seeds", "three", ...arms);
  assert.equal(badSeeds.status, 2);
  assert.match(badSeeds.stderr, /--seeds three: expected a range/);
  assert.equal(table("--seeds", "3-4", ...arms.slice(0, 2)).status, 2);
});
