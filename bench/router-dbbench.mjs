// DBBench end to end for the pool, its profiles and the router, with the embedded policy:
//   1. evolve a pool on the training split (standard-a) and measure rescue matrix, locality, complementarity;
//   2. profile the pool on the training split;
//   3. on held-out failed groups (dev), compare the routers' top-1 with a random sibling.
// Usage: pnpm build && node bench/router-dbbench.mjs [--out runs/router-dbbench] [--seed 0] [--rollouts 2]
//          [--generations 3] [--candidates 3] [--group 4] [--base v0.2]
// Uses createDbBench with the DBBench action grammar and an untrained embedded policy of --seed.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createDbBenchGrammar } from "../packages/benchmarks-dbbench/dist/grammar/index.js";
import { createDbBench } from "../packages/benchmarks-dbbench/dist/index.js";
import {
  createRuleClassifier,
  dbbenchConventions,
  dbbenchLibrary,
  evolvePool,
  formatRescueProperties,
  writePool,
} from "../packages/evolution/dist/index.js";
import { appendTrajectories } from "../packages/harness/dist/index.js";
import { createEmbeddedPolicy } from "../packages/policy-embedded/dist/index.js";
import { profilePool, writeProfileSet } from "../packages/profiles/dist/index.js";
import {
  createCombinedRouter,
  createProfileRouter,
  createVotingRouter,
  defaultProfileJudges,
  measureRouting,
} from "../packages/router/dist/index.js";

const { values } = parseArgs({
  options: {
    out: { type: "string", default: "runs/router-dbbench" },
    seed: { type: "string", default: "0" },
    rollouts: { type: "string", default: "2" },
    generations: { type: "string", default: "3" },
    candidates: { type: "string", default: "3" },
    group: { type: "string", default: "4" },
    base: { type: "string", default: "v0.2" },
  },
});
const seed = Number(values.seed);
const log = (message) => console.error(`[${((Date.now() - started) / 1000).toFixed(0)} s] ${message}`);
const started = Date.now();
await mkdir(values.out, { recursive: true });
const grammar = createDbBenchGrammar();
const benchmark = await createDbBench({ actionGrammar: grammar });
const train = (await benchmark.loadTasks({ split: "standard-a" })).tasks;
const heldout = (await benchmark.loadTasks({ split: "dev" })).tasks;
const base = benchmark.presets[values.base];
const policy = await createEmbeddedPolicy({ grammar, seed });
const classifiers = [createRuleClassifier(dbbenchConventions)];

const { pool, report, baseTrajectories } = await evolvePool({
  benchmark,
  policy,
  tasks: train,
  base,
  seed,
  rolloutsPerTask: Number(values.rollouts),
  generations: Number(values.generations),
  candidatesPerGeneration: Number(values.candidates),
  classifiers,
  library: dbbenchLibrary,
  onProgress: (message) => log(`evolve: ${message}`),
});
await writePool(join(values.out, "pool.json"), pool);
await writeFile(join(values.out, "pool.evolution.json"), `${JSON.stringify(report, null, 2)}\n`);
await writeFile(join(values.out, "pool.base.jsonl"), "");
await appendTrajectories(join(values.out, "pool.base.jsonl"), baseTrajectories);

const { profiles } = await profilePool({
  benchmark,
  policy,
  pool,
  tasks: train,
  seed: seed + 1,
  rolloutsPerTask: Number(values.rollouts),
  classifiers,
  conventions: dbbenchConventions,
  onProgress: (message) => log(`profile: ${message}`),
});
await writeProfileSet(join(values.out, "profiles.json"), profiles);

const voting = createVotingRouter({ judges: defaultProfileJudges({ conventions: dbbenchConventions }) });
const routing = await measureRouting({
  benchmark,
  policy,
  pool,
  profiles,
  routers: [
    createProfileRouter({ conventions: dbbenchConventions }),
    voting,
    createVotingRouter({
      judges: defaultProfileJudges({ conventions: dbbenchConventions }),
      aggregation: "majority",
    }),
    createCombinedRouter({
      parts: [{ router: createProfileRouter({ conventions: dbbenchConventions }) }, { router: voting }],
    }),
  ],
  tasks: heldout,
  groupSize: Number(values.group),
  seed: seed + 2,
  classifiers,
  onProgress: (message) => log(`route: ${message}`),
});
await writeFile(join(values.out, "routing.json"), `${JSON.stringify(routing, null, 2)}\n`);
policy.dispose?.();

const percent = (value) => `${(value * 100).toFixed(1)}%`;
console.log(`## DBBench, embedded policy ${pool.policyVersion}, base ${base.id}, seed ${seed}\n`);
console.log(
  `Base on standard-a: ${report.baseRun.successes}/${report.baseRun.episodes} solved; failure modes ${JSON.stringify(report.baseRun.modeCounts)}\n`,
);
console.log("| direction | base failures | candidates | outcome |\n|---|---|---|---|");
for (const entry of report.directions)
  console.log(`| ${entry.direction} | ${entry.failures} | ${entry.candidates.length} | ${entry.outcome} |`);
if (report.properties !== null) console.log(`\n${formatRescueProperties(report.properties)}\n`);
console.log(
  `Held-out (dev): ${routing.failedGroups} all-failed groups of ${routing.groups} (group size ${values.group})\n`,
);
console.log("| choice | rescued failed groups |\n|---|---|");
for (const [id, rate] of Object.entries(routing.routerTop1))
  console.log(`| router ${id} top-1 | ${percent(rate)} |`);
console.log(`| random sibling (expected) | ${percent(routing.randomSibling)} |`);
console.log(
  `| best single sibling (${routing.bestSingle.harnessId ?? "-"}, after the fact) | ${percent(routing.bestSingle.rate)} |`,
);
console.log(`| any sibling (ceiling) | ${percent(routing.anySibling)} |`);
console.log(`\nwall time ${((Date.now() - started) / 1000).toFixed(0)} s`);
