import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { BEHAVIOUR_POLICIES, siblingBehaviourTables } from "./behaviour-table.js";
import { buildCharts } from "./charts.js";
import { type Experiment, experimentLabel, readExperiment } from "./experiment.js";
import { type RenderedChart, renderChart } from "./render-chart.js";
import { spread, welch } from "./statistics.js";

/** One row of the result table: a method's held-out success over seeds. */
export interface MethodResult {
  /** Experiment label. */
  experiment: string;
  /** Method. */
  method: string;
  /** Held-out success per seed. */
  perSeed: number[];
  /** Mean. */
  mean: number;
  /** Sample standard deviation. */
  std: number;
  /** Mean rollouts spent per seed, when known. */
  rollouts: number | null;
}

/** How a method compares with a baseline. */
export interface Comparison {
  /** Experiment label. */
  experiment: string;
  /** The method. */
  method: string;
  /** The baseline. */
  baseline: string;
  /** Mean difference (method - baseline). */
  difference: number;
  /** Welch t, when it can be computed. */
  t: number | null;
  /** `won` / `lost` when |t| >= 2, otherwise `tied`. */
  verdict: "won" | "lost" | "tied";
}

const format = (value: number) => (Number.isFinite(value) ? value.toFixed(3) : "n/a");
const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The result table rows of an experiment. */
export function methodResults(experiment: Experiment): MethodResult[] {
  return Object.entries(experiment.results?.heldout ?? {}).map(([method, perSeed]) => {
    const stats = spread(perSeed);
    const rollouts = experiment.results?.rollouts?.[method];
    return {
      experiment: experimentLabel(experiment),
      method,
      perSeed,
      mean: stats.mean,
      std: stats.std,
      rollouts: rollouts === undefined ? null : spread(rollouts).mean,
    };
  });
}

/** Every method compared with every other method named as a baseline (`grpo`, `dapo`) in the experiment. */
export function comparisons(
  experiment: Experiment,
  method = "harness-s",
  baselines = ["grpo", "dapo"],
): Comparison[] {
  const heldout = experiment.results?.heldout ?? {};
  const ours = heldout[method];
  if (ours === undefined) return [];
  return baselines.flatMap((baseline) => {
    const theirs = heldout[baseline];
    if (theirs === undefined) return [];
    const difference = spread(ours).mean - spread(theirs).mean;
    const test = welch(ours, theirs);
    const verdict = test === null || Math.abs(test.t) < 2 ? "tied" : test.t > 0 ? "won" : "lost";
    return [
      { experiment: experimentLabel(experiment), method, baseline, difference, t: test?.t ?? null, verdict },
    ];
  });
}

function table(headers: string[], rows: string[][]): string {
  const head = headers.map((header) => `<th>${escapeHtml(header)}</th>`).join("");
  const body = rows
    .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join("")}</tr>`)
    .join("\n");
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** Behaviour frequency of each kept sibling's behaviours on held-out tasks, when the experiment measured it. */
function behaviourSections(experiment: Experiment): string[] {
  const file = experiment.behaviours;
  if (file === null) return [];
  const tables = siblingBehaviourTables(file);
  if (tables.length === 0) return [];
  const intro = `<h2>Behaviours of the kept siblings (${escapeHtml(experimentLabel(experiment))})</h2><p>Frequency on held-out split <code>${escapeHtml(file.split)}</code> under the ${escapeHtml(file.harness)} harness: shown/occasions summed over seeds, then per seed.</p>`;
  return [
    intro,
    ...tables.map(
      (entry) =>
        `<h3>${escapeHtml(entry.sibling)}${entry.direction === undefined ? "" : ` (${escapeHtml(entry.direction)})`}</h3>${table(
          ["behaviour", ...BEHAVIOUR_POLICIES.map(({ header }) => header)],
          entry.rows,
        )}`,
    ),
  ];
}

/** The report as Markdown-free HTML sections (tables and verdicts). */
function tablesHtml(experiments: readonly Experiment[]): string {
  const sections: string[] = [];
  const results = experiments.flatMap(methodResults);
  if (results.length > 0) {
    sections.push(
      "<h2>Held-out success under the base harness</h2>",
      table(
        ["experiment", "method", "per seed", "mean", "std", "rollouts per seed"],
        results.map((row) => [
          row.experiment,
          row.method,
          row.perSeed.map(format).join(", "),
          format(row.mean),
          format(row.std),
          row.rollouts === null ? "n/a" : row.rollouts.toFixed(0),
        ]),
      ),
    );
  }
  const verdicts = experiments.flatMap((experiment) => comparisons(experiment));
  if (verdicts.length > 0) {
    sections.push(
      "<h2>Did Harness-S win?</h2><p>Welch's t over seeds; |t| &lt; 2 counts as a tie.</p>",
      table(
        ["experiment", "method", "baseline", "mean difference", "Welch t", "verdict"],
        verdicts.map((row) => [
          row.experiment,
          row.method,
          row.baseline,
          format(row.difference),
          row.t === null ? "n/a" : row.t.toFixed(2),
          row.verdict,
        ]),
      ),
    );
  }
  const rank1 = experiments.flatMap((experiment) => {
    const value = experiment.results?.rank1;
    if (value === undefined) return [];
    const gains = value.rank1.map((entry, index) => entry - (value.base[index] ?? Number.NaN));
    const stats = spread(gains);
    return [
      [
        experimentLabel(experiment),
        value.base.map(format).join(", "),
        value.rank1.map(format).join(", "),
        `${format(stats.mean)} ± ${format(stats.std)}`,
      ],
    ];
  });
  if (rank1.length > 0) {
    sections.push(
      "<h2>Rank-1 inference (same executor rollouts)</h2>",
      table(["experiment", "base harness per seed", "Rank-1 per seed", "gain (mean ± std)"], rank1),
    );
  }
  sections.push(...experiments.flatMap(behaviourSections));
  const problems = experiments.flatMap((experiment) => experiment.problems);
  if (problems.length > 0)
    sections.push(
      "<h2>Problems while reading</h2>",
      `<ul>${problems.map((problem) => `<li>${escapeHtml(problem)}</li>`).join("")}</ul>`,
    );
  return sections.join("\n");
}

/** Options of `writeReport`. */
export interface WriteReportOptions {
  /** Experiment directories to include. */
  experiments: readonly string[];
  /** Output directory (index.html and charts/). */
  out: string;
}

/** Reads experiments and writes `OUT/index.html` (self-contained: charts inlined as SVG) and `OUT/charts/*.svg|png`. */
export async function writeReport(
  options: WriteReportOptions,
): Promise<{ html: string; charts: RenderedChart[]; experiments: Experiment[] }> {
  const experiments = await Promise.all(options.experiments.map(readExperiment));
  const chartDirectory = join(options.out, "charts");
  await mkdir(chartDirectory, { recursive: true });
  const charts: RenderedChart[] = [];
  for (const chart of buildCharts(experiments))
    charts.push(await renderChart(chart.spec, chart.name, chart.title, chartDirectory));
  const figures = charts
    .map(
      (chart) =>
        `<figure>${chart.svg}<figcaption>${escapeHtml(chart.title)} (<a href="charts/${chart.name}.png">PNG</a>)</figcaption></figure>`,
    )
    .join("\n");
  const wall = experiments
    .filter((experiment) => experiment.results !== null)
    .map(
      (experiment) =>
        `${escapeHtml(experimentLabel(experiment))}: ${experiment.results?.wall_seconds.toFixed(0)} s`,
    )
    .join("; ");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Harness-S report</title>
<style>body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}figure{margin:2em 0}figcaption{color:#555}</style>
</head><body>
<h1>Harness-S report</h1>
<p>Experiments: ${experiments.map((experiment) => `<code>${escapeHtml(experiment.directory)}</code>`).join(", ")}${wall === "" ? "" : `. Wall time: ${wall}.`}</p>
${tablesHtml(experiments)}
<h2>Charts</h2>
${figures === "" ? "<p>No chart data found.</p>" : figures}
</body></html>
`;
  await writeFile(join(options.out, "index.html"), html);
  return { html, charts, experiments };
}
