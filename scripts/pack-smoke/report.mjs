import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spread, welch, writeReport } from "@hs/report";

// A small experiment directory (results.json and two runs' metrics.jsonl), rendered to an HTML report
// with SVG and PNG charts; plus the statistics behind its verdict table.
const stats = spread([0.4, 0.42, 0.38]);
if (Math.abs(stats.mean - 0.4) > 1e-12 || Math.abs(stats.std - 0.02) > 1e-12)
  throw new Error(JSON.stringify(stats));
const test = welch([0.4, 0.42, 0.38], [0.2, 0.25, 0.22]);
if (test === null || !(test.t > 2)) throw new Error(`welch ${JSON.stringify(test)}`);
const directory = await mkdtemp(join(tmpdir(), "hs-smoke-report-"));
try {
  const experiment = join(directory, "experiment");
  await mkdir(experiment, { recursive: true });
  const heldout = { grpo: [0.2, 0.25, 0.22], dapo: [0.3, 0.1, 0.5], "harness-s": [0.4, 0.42, 0.38] };
  await writeFile(
    join(experiment, "results.json"),
    JSON.stringify({ wall_seconds: 60, seeds: [1, 2, 3], heldout }),
  );
  for (const method of ["grpo", "harness-s"]) {
    const run = join(experiment, "runs", method, "seed-1");
    await mkdir(run, { recursive: true });
    const rows = Array.from({ length: 4 }, (_, step) => ({
      step,
      signalShare: 0.2 + step * 0.1,
      rolloutsTotal: (step + 1) * 32,
      rolloutsBase: 32,
      rolloutsRescue: method === "grpo" ? 0 : 8,
      success: 0.1 * step,
      reward: 0.1 * step,
    }));
    await writeFile(join(run, "metrics.jsonl"), `${rows.map((row) => JSON.stringify(row)).join("\n")}\n`);
  }
  const out = join(directory, "report");
  const { html, charts } = await writeReport({ experiments: [experiment], out });
  if (!html.includes("harness-s") || !html.includes("<svg"))
    throw new Error("the report lacks its table or charts");
  if (charts.length === 0) throw new Error("no chart rendered");
  const png = await readFile(charts[0].files.png);
  if (png.subarray(1, 4).toString("latin1") !== "PNG") throw new Error(`${charts[0].files.png} is not a PNG`);
  const written = await readFile(join(out, "index.html"), "utf8");
  if (written !== html) throw new Error("index.html differs from the returned HTML");
  console.log(
    `report: index.html (${html.length} chars) with ${charts.length} charts (${charts.map((chart) => chart.name).join(", ")}); harness-s vs grpo Welch t = ${test.t.toFixed(2)}`,
  );
} finally {
  await rm(directory, { recursive: true, force: true });
}
