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
const fail = (message) => {
  process.stderr.write(`${message}\n`);
  process.exit(1);
};
const readRunFile = (file, writer) =>
  existsSync(file) ? readFileSync(file, "utf8") : fail(`${file}: missing (${writer} writes it)`);
// the step counters of a run's metrics.jsonl summed over its steps: rescues, their rollouts, groups
// saved, rescues the gate held back, harness-call steps credited
const rescueCountsOf = (file) => {
  const counts = { attempts: 0, rollouts: 0, saved: 0, gated: 0, credited: 0 };
  for (const [index, line] of readRunFile(file, "hs train").split("\n").entries()) {
    if (line.trim() === "") continue;
    let step;
    try {
      step = JSON.parse(line);
    } catch {
      fail(`${file}:${index + 1}: not a JSON line`);
    }
    const rescue = step.rescue ?? {};
    counts.attempts += rescue.attempts ?? 0;
    counts.rollouts += step.rolloutsRescue ?? 0;
    counts.saved += rescue.successes ?? 0;
    counts.gated += rescue.gated ?? 0;
    counts.credited += rescue.creditedSteps ?? 0;
  }
  return counts;
};
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
    [arm.name]: runs.map(
      (run) =>
        JSON.parse(readRunFile(join(run, `eval-${armSplit}.json`), `hs eval --split ${armSplit} --json`))
          .success,
    ),
  };
  rescueCounts[arm.name] = runs.map((run) => rescueCountsOf(join(run, "metrics.jsonl")));
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const sd = (values) => {
  if (values.length < 2) return 0;
  const center = mean(values);
  return Math.sqrt(values.reduce((sum, value) => sum + (value - center) ** 2, 0) / (values.length - 1));
};
const welch = (first, second) => {
  const error = Math.sqrt(sd(first) ** 2 / first.length + sd(second) ** 2 / second.length);
  return error === 0 ? null : (mean(first) - mean(second)) / error;
};
const format = (value) => value.toFixed(3);
const row = (cells) => `| ${cells.join(" | ")} |`;

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
    ...Object.entries(rescueCounts).flatMap(([name, perSeed]) => [
      `${name}, per seed: rescues ${perSeed.map((counts) => counts.attempts).join(", ")}; their rollouts ${perSeed.map((counts) => counts.rollouts).join(", ")}; groups saved ${perSeed.map((counts) => counts.saved).join(", ")}; held back by the gate ${perSeed.map((counts) => counts.gated).join(", ")}; harness-call steps credited ${perSeed.map((counts) => counts.credited).join(", ")}`,
      "",
    ]),
  ].join("\n"),
);
