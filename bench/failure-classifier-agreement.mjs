// Agreement of the rule classifier with the hand-labelled base failures of each benchmark
// (packages/failure-analysis/src/__fixtures__/labelled-failures, rules in LABELLING.md there), and
// the mode distribution: each mode's share of the base failures, by hand and by the classifier's
// primary label. The classifier gets the excerpts through classifyFailure (no grading details).
// Usage: pnpm build && node bench/failure-classifier-agreement.mjs [--json] [--disagreements]
import { parseArgs } from "node:util";
import { appworldConventions } from "../packages/benchmarks-appworld/dist/index.js";
import { dbbenchConventions } from "../packages/benchmarks-dbbench/dist/index.js";
import { sweGymConventions } from "../packages/benchmarks-swegym/dist/index.js";
import {
  measureAgreement,
  readLabelledFailures,
} from "../packages/failure-analysis/dist/labelled-failures.js";

const { values } = parseArgs({
  options: { json: { type: "boolean" }, disagreements: { type: "boolean" } },
});
const fixtures = new URL("../packages/failure-analysis/src/__fixtures__/labelled-failures/", import.meta.url);
const benchmarks = [
  ["dbbench", dbbenchConventions],
  ["appworld", appworldConventions],
  ["swegym", sweGymConventions],
];

const percent = (share) => `${(100 * share).toFixed(1)}%`;
const reports = [];
for (const [name, conventions] of benchmarks) {
  const failures = await readLabelledFailures(
    new URL(`${name}.jsonl`, fixtures),
    new URL(`${name}-labels.jsonl`, fixtures),
  );
  const report = await measureAgreement(failures, conventions);
  reports.push({ benchmark: name, ...report });
  if (values.json) continue;
  console.log(
    `\n${name}: ${report.agreed}/${report.total} primary modes agree (${percent(report.agreement)})`,
  );
  console.log(`  ${"mode".padEnd(26)} ${"hand".padStart(12)} ${"classifier".padStart(12)}`);
  for (const row of report.modes) {
    const hand = `${row.hand} ${percent(row.handShare)}`;
    const rules = `${row.classifier} ${percent(row.classifierShare)}`;
    console.log(`  ${row.mode.padEnd(26)} ${hand.padStart(12)} ${rules.padStart(12)}`);
  }
  console.log(`  modes covering >= 5% of base failures (classifier): ${report.modesOverFivePercent}`);
  if (values.disagreements)
    for (const miss of report.disagreements)
      console.log(`  x ${miss.id}: hand ${miss.hand}, rules ${miss.classifier}`);
}
if (values.json) console.log(JSON.stringify(reports, null, 2));
