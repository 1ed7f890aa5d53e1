// The three properties of one `hs quickstart` experiment, as measured: locality and complementarity of
// the evolved pool (DIR/pool.evolution.json: the rescue matrix against a re-roll of the base harness),
// and nonstationarity (each Harness-S run's re-anchored profiles: every harness's success and rescue rate
// at each re-anchoring step, for the policy of that step), each as a figure: locality against chance,
// the union's gain over the best single sibling and each pair's overlap, and the spread of each
// harness's success and the changes of the siblings' order across re-anchorings. When
// DIR/behaviour-frequency.json exists (bench/behaviour-frequency.mjs), each kept sibling's behaviour
// under the base harness before training, after GRPO and after Harness-S.
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

const poolFile = join(directory, "pool.json");
const baseId = existsSync(poolFile) ? JSON.parse(readFileSync(poolFile, "utf8")).base.id : "base";

/** How often the siblings' order by success rate differs from the previous re-anchoring's. */
function orderChanges(byHarness) {
  const siblings = [...byHarness.keys()].filter((harness) => harness !== baseId);
  const steps = [...new Set([...byHarness.values()].flat().map((point) => point.step))].sort((a, b) => a - b);
  const orders = steps.map((step) =>
    siblings
      .map((harness) => ({
        harness,
        rate: byHarness.get(harness).find((point) => point.step === step)?.successRate ?? -1,
      }))
      .sort((a, b) => b.rate - a.rate)
      .map((entry) => entry.harness)
      .join(">"),
  );
  return orders.filter((order, index) => index > 0 && order !== orders[index - 1]).length;
}

/** Each kept sibling's behaviours under the base harness, per policy, from bench/behaviour-frequency.mjs. */
function behaviourLines(file) {
  if (!existsSync(file)) return [];
  const { split, siblings, totals } = JSON.parse(readFileSync(file, "utf8"));
  const share = ({ shown, applicable }) =>
    `${shown}/${applicable} (${applicable === 0 ? "no occasion" : percent(shown / applicable)})`;
  return [
    "",
    `Behaviours under the base harness on ${split} (greedy, all seeds; shown / episodes it applies to):`,
    ...siblings.flatMap((sibling) =>
      sibling.behaviours.map(
        (behaviour) =>
          `- ${sibling.id} (${sibling.direction}), ${behaviour}: ${Object.entries(totals)
            .map(([policy, counts]) => `${policy} ${share(counts[behaviour])}`)
            .join("; ")}`,
      ),
    ),
  ];
}

const evolutionFile = join(directory, "pool.evolution.json");
const evolution = existsSync(evolutionFile) ? JSON.parse(readFileSync(evolutionFile, "utf8")) : null;
const properties = evolution?.properties ?? null;
const lines = [
  evolution === null
    ? `${evolutionFile} does not exist (a pool brought into the experiment without its evolution record): locality and complementarity are those of the evolve run that made the pool.`
    : `Evolution base run: ${evolution.baseRun.successes}/${evolution.baseRun.episodes} passed; failure modes ${JSON.stringify(evolution.baseRun.modeCounts)}`,
  "",
];
if (evolution !== null && properties === null) {
  lines.push("No sibling was kept, so there is no rescue matrix, locality or complementarity.", "");
} else if (properties !== null) {
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
    `Complementarity: union of siblings rescues ${properties.complementarity.unionTasks} of ${properties.complementarity.failedTasks} failed tasks; best single ${properties.complementarity.bestSingle?.harnessId ?? "none"} ${properties.complementarity.bestSingle?.tasks ?? 0} (the union adds ${properties.complementarity.unionTasks - (properties.complementarity.bestSingle?.tasks ?? 0)})`,
    ...properties.complementarity.pairs.map(
      (pair) =>
        `- ${pair.a} and ${pair.b}: ${pair.shared} tasks shared, Jaccard overlap ${pair.overlap === null ? "n/a" : pair.overlap.toFixed(2)}`,
    ),
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
  for (const [harness, points] of byHarness) {
    const rates = points.map((point) => point.successRate).filter((rate) => rate !== null);
    const spread = rates.length === 0 ? null : Math.max(...rates) - Math.min(...rates);
    lines.push(
      `- ${seed} ${harness}: ${points.map((point) => `step ${point.step} ${percent(point.successRate)} / ${percent(point.rescueRate)}`).join(", ")}; spread ${percent(spread)}`,
    );
  }
  lines.push(`- ${seed}: the siblings' order by success changed at ${orderChanges(byHarness)} re-anchorings`);
}
lines.push(...behaviourLines(join(directory, "behaviour-frequency.json")));
process.stdout.write(`${lines.join("\n")}\n`);
