// The three properties of one `hs quickstart` experiment, as measured: locality and complementarity of
// the evolved pool (DIR/pool.evolution.json: the rescue matrix against a re-roll of the base harness),
// and nonstationarity (each Harness-S run's re-anchored profiles: every harness's success and rescue rate
// at each re-anchoring step, for the policy of that step).
//
//   pnpm build && node bench/experiment-properties.mjs runs/quickstart-appworld
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { profileDrift, readProfileSet } from "../packages/profiles/dist/index.js";

const directory = process.argv[2];
if (directory === undefined) {
  process.stderr.write("usage: node bench/experiment-properties.mjs EXPERIMENT_DIR\n");
  process.exit(2);
}
const percent = (value) => (value === null || value === undefined ? "n/a" : `${(value * 100).toFixed(1)}%`);

const { properties, baseRun } = JSON.parse(readFileSync(join(directory, "pool.evolution.json"), "utf8"));
const lines = [
  `Evolution base run: ${baseRun.successes}/${baseRun.episodes} passed; failure modes ${JSON.stringify(baseRun.modeCounts)}`,
  "",
];
if (properties === null) {
  lines.push("No sibling was kept, so there is no rescue matrix, locality or complementarity.", "");
} else {
  lines.push(
    "Rescue of base failures (overall), each sibling against a re-roll of the base harness:",
    ...Object.entries(properties.overall).map(
      ([harness, cell]) => `- ${harness}: ${cell.rescued}/${cell.attempts} (${percent(cell.rate)})`,
    ),
    "",
    "Locality (share of a sibling's rescues in its own direction's failure modes, against chance):",
    ...Object.entries(properties.locality).map(
      ([harness, entry]) =>
        `- ${harness} (${entry.direction}): ${entry.local}/${entry.rescues} local (${percent(entry.locality)}; chance ${percent(entry.chance)})`,
    ),
    "",
    `Complementarity: union of siblings rescues ${properties.complementarity.unionTasks} of ${properties.complementarity.failedTasks} failed tasks; best single ${properties.complementarity.bestSingle?.harnessId ?? "none"} ${properties.complementarity.bestSingle?.tasks ?? 0}; ${properties.complementarity.pairs.length} pairs`,
    "",
  );
}
lines.push(
  "Nonstationarity (re-anchored profiles of each Harness-S run: success rate / rescue rate per step):",
);
const runs = join(directory, "runs", "harness-s");
for (const seed of existsSync(runs) ? readdirSync(runs).sort() : []) {
  const file = join(runs, seed, "profiles.json");
  if (!existsSync(file)) continue;
  const drift = profileDrift(await readProfileSet(file));
  const byHarness = new Map();
  for (const point of drift)
    byHarness.set(point.harnessId, [...(byHarness.get(point.harnessId) ?? []), point]);
  for (const [harness, points] of byHarness)
    lines.push(
      `- ${seed} ${harness}: ${points.map((point) => `step ${point.step} ${percent(point.successRate)} / ${percent(point.rescueRate)}`).join(", ")}`,
    );
}
process.stdout.write(`${lines.join("\n")}\n`);
