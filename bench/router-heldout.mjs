// Router top-1 vs a random sibling on held-out failed groups.
// Usage: pnpm build && node bench/router-heldout.mjs --pool pool.json --profiles profiles.json
//          [--split dev] [--tasks N] [--group 4] [--rescue-rollouts 1] [--policy embedded[:DIR]] [--seed 0]
// Runs groups under the pool's base harness on held-out tasks, keeps the all-failed groups, runs every
// sibling on each (the same episodes score every choice), and prints each router's top-1 rescue rate
// next to a uniformly random sibling, the best single sibling and the any-sibling ceiling.
import { parseArgs } from "node:util";
import { loadTaskSet, openBenchmark, resolvePolicy } from "../apps/trainer/dist/commands/eval.js";
import { conventionsFor, createRuleClassifier, readPool } from "../packages/evolution/dist/index.js";
import { readProfileSet } from "../packages/profiles/dist/index.js";
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
    tasks: { type: "string", default: "0" },
    group: { type: "string", default: "4" },
    "rescue-rollouts": { type: "string", default: "1" },
    policy: { type: "string", default: "embedded" },
    seed: { type: "string", default: "0" },
  },
});
if (values.pool === undefined || values.profiles === undefined) {
  console.error(
    "usage: node bench/router-heldout.mjs --pool pool.json --profiles profiles.json [--split dev]",
  );
  process.exit(2);
}
const pool = await readPool(values.pool);
const profiles = await readProfileSet(values.profiles);
const benchmark = await openBenchmark(pool.benchmark);
let tasks = await loadTaskSet(benchmark, undefined, values.split);
if (Number(values.tasks) > 0) tasks = tasks.slice(0, Number(values.tasks));
const seed = Number(values.seed);
const policy = await resolvePolicy(benchmark, values.policy, seed);
const conventions = conventionsFor(benchmark.id);
const voting = createVotingRouter({ judges: defaultProfileJudges({ conventions }) });
const routers = [
  createProfileRouter({ conventions }),
  voting,
  createVotingRouter({ judges: defaultProfileJudges({ conventions }), aggregation: "majority" }),
  createCombinedRouter({ parts: [{ router: createProfileRouter({ conventions }) }, { router: voting }] }),
];
const started = Date.now();
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
  onProgress: (message) => console.error(`router-heldout: ${message}`),
});
policy.dispose?.();
const percent = (value) => `${(value * 100).toFixed(1)}%`;
console.log(
  `held-out split ${values.split}: ${result.failedGroups} all-failed groups of ${result.groups} (group size ${values.group}); ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
console.log("| choice | rescued failed groups |\n|---|---|");
for (const [id, rate] of Object.entries(result.routerTop1))
  console.log(`| router ${id} top-1 | ${percent(rate)} |`);
console.log(`| random sibling (expected) | ${percent(result.randomSibling)} |`);
console.log(
  `| best single sibling (${result.bestSingle.harnessId ?? "-"}, chosen after the fact) | ${percent(result.bestSingle.rate)} |`,
);
console.log(`| any sibling (ceiling) | ${percent(result.anySibling)} |`);
for (const [id, rate] of Object.entries(result.perSibling)) console.log(`| ${id} | ${percent(rate)} |`);
