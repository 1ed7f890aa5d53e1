#!/usr/bin/env node
// Gold replay of the bundled SWE-Gym-format instances through @hs/benchmarks-swegym (build it first:
// pnpm --filter @hs/benchmarks-swegym build). Prints the GoldReplayReportV1 JSON and one line of figures.
// Usage: node bench/swegym-gold-replay.mjs [split ...]   (default: train heldout heldout-repos)
import { createSweGym } from "../packages/benchmarks-swegym/dist/index.js";

const splits =
  process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["train", "heldout", "heldout-repos"];
const built = Date.now();
const benchmark = await createSweGym();
const mirrorSeconds = (Date.now() - built) / 1000;
const reports = {};
for (const split of splits) {
  reports[split] = await benchmark.goldReplay({
    tasks: { split },
    onProgress: (done, total) => process.stderr.write(`\r${split} ${done}/${total}`),
  });
  process.stderr.write("\n");
}
const sum = (key) => Object.values(reports).reduce((total, report) => total + report[key], 0);
console.log(
  JSON.stringify(
    { passed: sum("passed"), total: sum("total"), emptyPassed: sum("emptyPassed"), splits: reports },
    null,
    2,
  ),
);
const details = Object.values(reports).map((report) => report.details);
const evaluations = details.reduce((total, d) => total + d.evaluations, 0);
const wall = details.reduce((total, d) => total + d.wallSeconds, 0);
const weighted = (key) =>
  Math.round(details.reduce((total, d) => total + d[key] * d.evaluations, 0) / evaluations);
console.error(
  `gold ${sum("passed")}/${sum("total")}, empty ${sum("emptyPassed")}; ${evaluations} evaluations in ${wall.toFixed(1)} s ` +
    `(${(evaluations / wall).toFixed(2)} per second, ${(evaluations / 2 / wall).toFixed(2)} instances per second); ` +
    `workspace creation ${weighted("meanCheckoutMs")} ms, patch + test run ${weighted("meanTestRunMs")} ms; mirror built in ${mirrorSeconds.toFixed(1)} s`,
);
