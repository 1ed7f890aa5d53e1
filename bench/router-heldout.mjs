// Router top-1 vs a random sibling on held-out failed groups.
// Usage: pnpm build && node bench/router-heldout.mjs --pool pool.json --profiles profiles.json
//          [--split dev] [--skip N] [--tasks N] [--group 4] [--rescue-rollouts 1] [--policy embedded[:DIR]]
//          [--seeds 0,1,2] [--smoothing N] [--outcomes groups.jsonl]
// For each seed: runs groups under the pool's base harness on held-out tasks, keeps the all-failed
// groups, runs every sibling on each (the same episodes score every choice), and scores each router's
// top-1 next to a uniformly random sibling, the best single sibling and the any-sibling ceiling. Prints
// every seed, then the totals over seeds with the router-minus-random difference and its spread.
// --outcomes writes one line per all-failed group: seed, task, category, mode mix, rescuing siblings,
// each router's top-1.
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { loadTaskSet, openBenchmark, resolvePolicy } from "../apps/trainer/dist/commands/eval.js";
import { conventionsFor, createRuleClassifier, readPool } from "../packages/evolution/dist/index.js";
import { readProfileSet } from "../packages/profiles/dist/index.js";
import { spread } from "../packages/report/dist/index.js";
import {
  createCombinedRouter,
  createProfileRouter,
  createVotingRouter,
  defaultProfileJudges,
  measureRouting,
} from "../packages/router/dist/index.js";

const { values } = parseArgs({
  options: {
    pool: { type: "string" },
    profiles: { type: "string" },
    split: { type: "string", default: "dev" },
    skip: { type: "string", default: "0" },
    tasks: { type: "string", default: "0" },
    group: { type: "string", default: "4" },
    "rescue-rollouts": { type: "string", default: "1" },
    policy: { type: "string", default: "embedded" },
    seeds: { type: "string", default: "0" },
    smoothing: { type: "string", default: "1" },
    outcomes: { type: "string" },
  },
});
if (values.pool === undefined || values.profiles === undefined) {
  console.error(
    "usage: node bench/router-heldout.mjs --pool pool.json --profiles profiles.json [--split dev] [--seeds 0,1,2]",
  );
  process.exit(2);
}
const pool = await readPool(values.pool);
const profiles = await readProfileSet(values.profiles);
const benchmark = await openBenchmark(pool.benchmark);
let tasks = await loadTaskSet(benchmark, undefined, values.split);
tasks = tasks.slice(Number(values.skip));
if (Number(values.tasks) > 0) tasks = tasks.slice(0, Number(values.tasks));
const seeds = values.seeds.split(",").map(Number);
const smoothing = Number(values.smoothing);
const conventions = conventionsFor(benchmark.id);
const profileRouter = createProfileRouter({ conventions, smoothing });
const judges = defaultProfileJudges({ conventions });
const voting = createVotingRouter({ judges });
const routers = [
  profileRouter,
  voting,
  createVotingRouter({ judges, aggregation: "majority" }),
  createCombinedRouter({ parts: [{ router: profileRouter }, { router: voting }] }),
];
const percent = (value) => `${(value * 100).toFixed(1)}%`;
const started = Date.now();
const rows = new Map();
const add = (name, seedIndex, rescued) => {
  const row = rows.get(name) ?? [];
  row[seedIndex] = rescued;
  rows.set(name, row);
};
const failedPerSeed = [];
const picksTotal = {};
const outcomeLines = [];
for (const [seedIndex, seed] of seeds.entries()) {
  const policy = await resolvePolicy(benchmark, values.policy, seed);
  const result = await measureRouting({
    benchmark,
    policy,
    pool,
    profiles,
    routers,
    tasks,
    groupSize: Number(values.group),
    rescueRollouts: Number(values["rescue-rollouts"]),
    seed,
    classifiers: [createRuleClassifier(conventions)],
    onProgress: (message) => console.error(`router-heldout: seed ${seed}: ${message}`),
  });
  policy.dispose?.();
  for (const outcome of result.outcomes) outcomeLines.push(JSON.stringify({ seed, ...outcome }));
  const failed = result.failedGroups;
  failedPerSeed.push(failed);
  for (const [id, rate] of Object.entries(result.routerTop1))
    add(`router ${id} top-1`, seedIndex, rate * failed);
  for (const [id, picks] of Object.entries(result.routerPicks))
    for (const [sibling, count] of Object.entries(picks))
      picksTotal[`${id} -> ${sibling}`] = (picksTotal[`${id} -> ${sibling}`] ?? 0) + count;
  add("random sibling (expected)", seedIndex, result.randomSibling * failed);
  add("any sibling (ceiling)", seedIndex, result.anySibling * failed);
  for (const [id, rate] of Object.entries(result.perSibling)) add(id, seedIndex, rate * failed);
}
if (values.outcomes !== undefined) await writeFile(values.outcomes, `${outcomeLines.join("\n")}\n`);
const totalFailed = failedPerSeed.reduce((sum, count) => sum + count, 0);
console.log(
  `held-out split ${values.split}: seeds ${seeds.join(",")}; all-failed groups (group size ${values.group}) per seed ${failedPerSeed.join(", ")}; smoothing ${values.smoothing}; ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
console.log(`| choice | ${seeds.map((seed) => `seed ${seed}`).join(" | ")} | all seeds |`);
console.log(`|---|${seeds.map(() => "---|").join("")}---|`);
for (const [name, row] of rows) {
  const total = row.reduce((sum, rescued) => sum + rescued, 0);
  const cells = row.map((rescued, index) =>
    percent(failedPerSeed[index] === 0 ? 0 : rescued / failedPerSeed[index]),
  );
  console.log(`| ${name} | ${cells.join(" | ")} | ${percent(totalFailed === 0 ? 0 : total / totalFailed)} |`);
}
const random = rows.get("random sibling (expected)") ?? [];
for (const [name, row] of rows) {
  if (!name.startsWith("router ")) continue;
  const differences = row.map(
    (rescued, index) => (rescued - (random[index] ?? 0)) / Math.max(1, failedPerSeed[index]),
  );
  const { mean, std } = spread(differences);
  const wins = differences.filter((value) => value > 0).length;
  const losses = differences.filter((value) => value < 0).length;
  console.log(
    `${name} minus random: mean ${(mean * 100).toFixed(1)} points, sd ${(std * 100).toFixed(1)} over ${differences.length} seeds (above on ${wins}, below on ${losses})`,
  );
}
console.log(
  `top-1 picks over all seeds: ${Object.entries(picksTotal)
    .map(([pick, count]) => `${pick} ${count}`)
    .join(", ")}`,
);
