// Siblings that change what the policy sees and can do (harness-made calls, macros, budgets) against the
// re-roll control, on DBBench's TRAIN split (standard-a, what `hs evolve` uses by default; never dev or
// held-out). The base harness (v0.2) runs every task --rollouts times with the untrained embedded policy
// (the seeds `hs evolve` uses); each base failure is then re-run with --fresh new seeds, once under each
// sibling and once under the base harness with the SAME fresh seeds (paired). Printed per sibling: the
// failures it rescued, the base re-roll's rescues on the same episodes, their ratio, the discordant
// pairs and a one-sided exact sign test on them.
// Usage: pnpm build && node bench/sibling-vs-reroll.mjs [--tasks N] [--rollouts 4] [--fresh 1] [--seed 0] [--concurrency 2]
import { parseArgs } from "node:util";
import { createDbBench, dbbenchHarnessCallLibrary } from "../packages/benchmarks-dbbench/dist/index.js";
import { applyOperator, builtinOperators, signTestPValue } from "../packages/evolution/dist/index.js";
import { episodeSeed, runJobs } from "../packages/failure-analysis/dist/index.js";
import { createDbBenchGrammar } from "../packages/grammar-dbbench/dist/index.js";
import { createRandom, textSeed } from "../packages/harness/dist/index.js";
import { createEmbeddedPolicy } from "../packages/policy-embedded/dist/index.js";

const { values } = parseArgs({
  options: {
    tasks: { type: "string", default: "0" },
    rollouts: { type: "string", default: "4" },
    fresh: { type: "string", default: "1" },
    seed: { type: "string", default: "0" },
    concurrency: { type: "string", default: "2" },
  },
});
const seed = Number(values.seed);
const rollouts = Number(values.rollouts);
const fresh = Number(values.fresh);
const concurrency = Number(values.concurrency);

const benchmark = createDbBench();
const base = benchmark.presets[benchmark.defaultPreset];
const split = benchmark.trainSplit;
let { tasks } = await benchmark.loadTasks({ split });
if (Number(values.tasks) > 0) tasks = tasks.slice(0, Number(values.tasks));
const policy = await createEmbeddedPolicy({ grammar: createDbBenchGrammar(), seed });
const runner = { benchmark, policy, concurrency };

/** One sibling per library entry of each new operator: the config the operator makes from the base. */
function siblingsOf() {
  const library = { ...benchmark.evolutionLibrary };
  const entries = [
    ["context", "add-prelude", "preludes"],
    ["error-recovery", "add-follow-up", "followUps"],
    ["verification", "add-check-calls", "checkCalls"],
    ["budget", "set-steps", "stepBudgets"],
    ["tool-exposure", "add-macro", "macros"],
  ];
  const siblings = [];
  for (const [direction, name, field] of entries) {
    const operator = builtinOperators.find((entry) => entry.direction === direction && entry.name === name);
    dbbenchHarnessCallLibrary[field].forEach((entry, index) => {
      // a library holding this one entry, so that the operator's choice is that entry
      const only = { ...library, [field]: [entry] };
      const config = applyOperator(operator, base, {
        random: createRandom(seed),
        library: only,
        toolNames: ["execute_sql", "commit_final_answer"],
      });
      if (config === null) throw new Error(`${name} does not apply with ${field}[${index}]`);
      siblings.push({
        id: `${direction}:${name}[${index}]`,
        config: { ...config, id: `${direction}-${name}-${index}` },
      });
    });
  }
  return siblings;
}

const started = Date.now();
const baseJobs = tasks.flatMap((task) =>
  Array.from({ length: rollouts }, (_, rollout) => ({
    task,
    harness: base,
    seed: episodeSeed(task.id, rollout, seed),
  })),
);
const baseRun = await runJobs(runner, baseJobs);
const failures = baseRun.flatMap((trajectory, index) => (trajectory.success ? [] : [baseJobs[index]]));
console.log(
  `DBBench ${split}: ${tasks.length} tasks x ${rollouts} base rollouts (${base.id}, embedded policy seed ${seed}): ` +
    `${baseRun.length - failures.length} solved, ${failures.length} failures`,
);
// fresh seeds per failure, never one of the base rollouts' seeds
const freshJobs = failures.flatMap((job) =>
  Array.from({ length: fresh }, (_, index) => ({
    task: job.task,
    seed: textSeed(`${job.seed}:fresh:${index}`) >>> 1,
  })),
);
const reroll = await runJobs(
  runner,
  freshJobs.map((job) => ({ ...job, harness: base })),
);
const rerollRescued = reroll.filter((trajectory) => trajectory.success).length;
console.log(
  `re-roll control (base harness, same fresh seeds): ${rerollRescued} of ${freshJobs.length} episodes`,
);
console.log(
  "sibling | direction | rescued | re-roll | ratio | sibling-only | re-roll-only | sign-test p (one-sided)",
);
for (const sibling of siblingsOf()) {
  const run = await runJobs(
    runner,
    freshJobs.map((job) => ({ ...job, harness: sibling.config })),
  );
  const rescued = run.filter((trajectory) => trajectory.success).length;
  let siblingOnly = 0;
  let rerollOnly = 0;
  run.forEach((trajectory, index) => {
    const control = reroll[index]?.success === true;
    if (trajectory.success && !control) siblingOnly += 1;
    if (!trajectory.success && control) rerollOnly += 1;
  });
  const ratio = rerollRescued === 0 ? (rescued === 0 ? "-" : "inf") : (rescued / rerollRescued).toFixed(2);
  console.log(
    `${sibling.id} | ${sibling.id.split(":")[0]} | ${rescued} | ${rerollRescued} | ${ratio} | ${siblingOnly} | ${rerollOnly} | ${signTestPValue(siblingOnly, siblingOnly + rerollOnly).toFixed(4)}`,
  );
}
policy.dispose();
console.log(`wall ${((Date.now() - started) / 1000).toFixed(1)} s`);
