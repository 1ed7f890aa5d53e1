// Held-out success of runs trained with `hs train` and evaluated with `hs eval --split H --json`
// outside an `hs quickstart` experiment (one run per seed in DIR/seed-S): every seed, mean, sample sd,
// each arm minus the first (the baseline) with Welch's t, and per arm its rescue counters per seed and
// its siblings' rollouts and successful rollouts over all seeds.
//
//   node bench/arm-table.mjs --split test --seeds 1-10 --arm grpo=runs/exp/runs/grpo \
//     --arm harness-s=runs/exp/runs/harness-s [--arm ...]
import { join } from "node:path";
import { parseArgs } from "node:util";
import { armsOf } from "./arm-option.mjs";
import {
  evaluationSuccess,
  format,
  mean,
  rescueCountsOf,
  rescueLine,
  row,
  sd,
  welch,
} from "./run-figures.mjs";

const { values: options } = parseArgs({
  options: {
    arm: { type: "string", multiple: true, default: [] },
    split: { type: "string", default: "test" },
    seeds: { type: "string", default: "1-5" },
  },
});
const usage =
  "usage: node bench/arm-table.mjs [--split H] [--seeds A-B|A,B,...] --arm BASELINE=DIR --arm NAME=DIR ...";
const arms = armsOf(options.arm);
if (arms.length < 2) {
  process.stderr.write(`${usage}\n(at least two arms: the baseline, then what is compared with it)\n`);
  process.exit(2);
}
const seeds = seedsOf(options.seeds);

function seedsOf(text) {
  const range = /^(\d+)-(\d+)$/.exec(text);
  const list = range === null ? text.split(",").filter((seed) => seed !== "") : [];
  if (range !== null) for (let seed = Number(range[1]); seed <= Number(range[2]); seed += 1) list.push(seed);
  const parsed = list.map(Number);
  if (parsed.length === 0 || parsed.some((seed) => !Number.isInteger(seed) || seed < 0)) {
    process.stderr.write(`--seeds ${text}: expected a range A-B or a list A,B,... of seeds\n`);
    process.exit(2);
  }
  return parsed;
}

const figures = arms.map((arm) => {
  const runs = seeds.map((seed) => join(arm.directory, `seed-${seed}`));
  return { ...arm, success: runs.map((run) => evaluationSuccess(run, options.split)), runs };
});
const [baseline, ...compared] = figures;
const lines = [
  `### ${options.split} (success under the base harness), seeds ${seeds.join(", ")}`,
  "",
  row(["arm", ...seeds.map((seed) => `seed ${seed}`), "mean", "sd"]),
  row(["---", ...seeds.map(() => "---"), "---", "---"]),
  ...figures.map(({ name, success }) =>
    row([name, ...success.map(format), format(mean(success)), format(sd(success))]),
  ),
  "",
];
for (const arm of compared) {
  const t = welch(arm.success, baseline.success);
  lines.push(
    `${arm.name} - ${baseline.name}: ${format(mean(arm.success) - mean(baseline.success))} (Welch t ${t === null ? "n/a" : t.toFixed(2)})`,
  );
}
for (const arm of compared) {
  const perSeed = arm.runs.map((run) => rescueCountsOf(join(run, "metrics.jsonl")));
  const siblings = {};
  for (const counts of perSeed)
    for (const [id, sibling] of Object.entries(counts.siblings)) {
      siblings[id] ??= { rollouts: 0, successes: 0 };
      siblings[id].rollouts += sibling.rollouts;
      siblings[id].successes += sibling.successes;
    }
  lines.push(
    "",
    rescueLine(arm.name, perSeed),
    `${arm.name}, siblings over all seeds: ${
      Object.entries(siblings)
        .map(
          ([id, sibling]) => `${id} ${sibling.rollouts} rollouts, ${sibling.successes} successful rollouts`,
        )
        .join("; ") || "none"
    }`,
  );
}
process.stdout.write(`${lines.join("\n")}\n`);
