// Markdown tables of one `hs quickstart` experiment: held-out success per split, method and seed (mean,
// sample sd, Welch t of harness-s against each baseline), the untrained policy, Rank-1, the benchmark's
// own metrics, and the share of groups with signal.
//
//   node bench/experiment-table.mjs runs/quickstart-swegym
import { readFileSync } from "node:fs";
import { join } from "node:path";

const directory = process.argv[2];
if (directory === undefined) {
  process.stderr.write("usage: node bench/experiment-table.mjs EXPERIMENT_DIR\n");
  process.exit(2);
}
const results = JSON.parse(readFileSync(join(directory, "results.json"), "utf8"));

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
  const ours = methods["harness-s"];
  for (const baseline of ["grpo", "dapo"]) {
    const theirs = methods[baseline];
    if (ours === undefined || theirs === undefined) continue;
    const t = welch(ours, theirs);
    lines.push(
      "",
      `harness-s - ${baseline}: ${format(mean(ours) - mean(theirs))} (Welch t ${t === null ? "n/a" : t.toFixed(2)})`,
    );
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
  ].join("\n"),
);
