// Markdown tables of one `hs quickstart` experiment: held-out success per split, method and seed (mean,
// sample sd, Welch t of harness-s against each baseline), the untrained policy, Rank-1, the benchmark's
// own metrics, and the share of groups with signal. Each `--arm NAME=DIR` adds, on the first held-out split
// (H), a method trained outside the quickstart: DIR/seed-S/eval-H.json (`hs eval --split H --json`) per seed,
// compared with GRPO, DAPO and Harness-S. For the quickstart's Harness-S runs and each arm, per seed: the
// rescues, their rollouts, the groups they saved, the rescues the gate held back and the harness-call
// steps credited.
//
//   node bench/experiment-table.mjs runs/quickstart-swegym
//   node bench/experiment-table.mjs runs/exp-credit --arm harness-s-credit=runs/exp-credit/runs/harness-s-credit
import { existsSync, readFileSync } from "node:fs";
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

const { values: options, positionals } = parseArgs({
  options: { arm: { type: "string", multiple: true, default: [] } },
  allowPositionals: true,
});
const [directory] = positionals;
const arms = armsOf(options.arm);
if (directory === undefined) {
  process.stderr.write("usage: node bench/experiment-table.mjs EXPERIMENT_DIR [--arm NAME=DIR ...]\n");
  process.exit(2);
}
const results = JSON.parse(readFileSync(join(directory, "results.json"), "utf8"));
const [armSplit] = results.heldout_splits;
const rescueCounts = {};
const quickstartRescue = join(directory, "runs", "harness-s");
if (existsSync(quickstartRescue))
  rescueCounts["harness-s"] = results.seeds.map((seed) =>
    rescueCountsOf(join(quickstartRescue, `seed-${seed}`, "metrics.jsonl")),
  );
for (const arm of arms) {
  const runs = results.seeds.map((seed) => join(arm.directory, `seed-${seed}`));
  results.heldout_by_split[armSplit] = {
    ...results.heldout_by_split[armSplit],
    [arm.name]: runs.map((run) => evaluationSuccess(run, armSplit)),
  };
  rescueCounts[arm.name] = runs.map((run) => rescueCountsOf(join(run, "metrics.jsonl")));
}

function splitTable(split) {
  const methods = results.heldout_by_split[split] ?? {};
  const lines = [
    `### ${split} (success under the base harness, one greedy episode per task)`,
    "",
    row(["policy", ...results.seeds.map((seed) => `seed ${seed}`), "mean", "sd"]),
    row(["---", ...results.seeds.map(() => "---"), "---", "---"]),
  ];
  const untrained = results.untrained_by_split?.[split];
  const entries = [
    ...(untrained === undefined ? [] : [["untrained", untrained]]),
    ...Object.entries(methods),
    ...(results.rank1_by_split?.[split] === undefined
      ? []
      : [["harness-s, Rank-1", results.rank1_by_split[split].rank1]]),
  ];
  for (const [name, values] of entries)
    lines.push(row([name, ...values.map(format), format(mean(values)), format(sd(values))]));
  const compared = ["harness-s", ...arms.map((arm) => arm.name)];
  for (const name of compared) {
    for (const baseline of ["grpo", "dapo", ...(name === "harness-s" ? [] : ["harness-s"])]) {
      const [ours, theirs] = [methods[name], methods[baseline]];
      if (ours === undefined || theirs === undefined) continue;
      const t = welch(ours, theirs);
      lines.push(
        "",
        `${name} - ${baseline}: ${format(mean(ours) - mean(theirs))} (Welch t ${t === null ? "n/a" : t.toFixed(2)})`,
      );
    }
  }
  return lines.join("\n");
}

function metricsTable(split) {
  const methods = results.metrics_by_split?.[split] ?? {};
  const names = [...new Set(Object.values(methods).flatMap((perSeed) => perSeed.flatMap(Object.keys)))];
  if (names.length === 0) return "";
  const lines = [
    `metrics on ${split} (mean over seeds)`,
    "",
    row(["method", ...names]),
    row(["---", ...names.map(() => "---")]),
  ];
  for (const [method, perSeed] of Object.entries(methods))
    lines.push(row([method, ...names.map((name) => format(mean(perSeed.map((entry) => entry[name] ?? 0))))]));
  return lines.join("\n");
}

const signal = Object.entries(results.signal_share_first_quarter ?? {}).map(
  ([method, values]) => `${method} ${values.map(format).join(", ")}`,
);
const rollouts = Object.entries(results.rollouts ?? {}).map(
  ([method, values]) => `${method} ${values.join(", ")}`,
);
process.stdout.write(
  [
    `Experiment ${directory}: ${results.seeds.length} seeds, wall ${Math.round(results.wall_seconds)} s`,
    "",
    ...results.heldout_splits.flatMap((split) => [splitTable(split), "", metricsTable(split), ""]),
    `share of groups with signal, first quarter of training: ${signal.join("; ")}`,
    "",
    `rollouts spent: ${rollouts.join("; ")}`,
    "",
    ...Object.entries(rescueCounts).flatMap(([name, perSeed]) => [rescueLine(name, perSeed), ""]),
  ].join("\n"),
);
