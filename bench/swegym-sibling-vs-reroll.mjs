// SWE-Gym siblings that trace the calls the problem statement writes, against the re-roll control, on the
// bundled TRAIN split only (never held-out). The base harness (mini-swe-agent preset) runs every task
// --rollouts times with the untrained embedded policy (the seeds `hs evolve` uses); each base failure is
// then re-run with --fresh new seeds, once under each sibling and once under the base harness with the
// SAME fresh seeds (paired). Printed per sibling: the failures it rescued, the re-roll's rescues on the
// same episodes, the discordant pairs and a one-sided exact sign test on them.
// Usage: pnpm build && node bench/swegym-sibling-vs-reroll.mjs [--tasks N] [--rollouts 1] [--fresh 1] [--seed 0] [--concurrency 2] [--all]
//   --all: every harness-call entry of the library, not only the trace ones
//   --only REGEX: only the siblings whose id (e.g. `context:add-prelude[1]`) matches
import { parseArgs } from "node:util";
import { createSweGym, sweGymHarnessCallLibrary } from "../packages/benchmarks-swegym/dist/index.js";
import { applyOperator, builtinOperators, signTestPValue } from "../packages/evolution/dist/index.js";
import { episodeSeed, runJobs } from "../packages/failure-analysis/dist/index.js";
import { createSweGymGrammar } from "../packages/grammar-swegym/dist/index.js";
import { createRandom, textSeed } from "../packages/harness/dist/index.js";
import { createEmbeddedPolicy } from "../packages/policy-embedded/dist/index.js";

const { values } = parseArgs({
  options: {
    tasks: { type: "string", default: "0" },
    rollouts: { type: "string", default: "1" },
    fresh: { type: "string", default: "1" },
    seed: { type: "string", default: "0" },
    concurrency: { type: "string", default: "2" },
    all: { type: "boolean", default: false },
    only: { type: "string" },
  },
});
const seed = Number(values.seed);
const rollouts = Number(values.rollouts);
const fresh = Number(values.fresh);
const concurrency = Number(values.concurrency);

const grammar = createSweGymGrammar();
// grading cut at 120 s, as `hs evolve --grade-timeout 120` and bench/swegym-prior-train.mjs do
const benchmark = await createSweGym({ actionGrammar: grammar, gradeTimeLimitMs: 120_000 });
const base = benchmark.presets[benchmark.defaultPreset];
let { tasks } = await benchmark.loadTasks({ split: "train" });
if (Number(values.tasks) > 0) tasks = tasks.slice(0, Number(values.tasks));
const policy = await createEmbeddedPolicy({ grammar, seed });
const runner = { benchmark, policy, concurrency };

/** Whether a library entry runs the statement trace (its calls name `metadata.statementCalls`). */
const traces = (entry) => JSON.stringify(entry).includes("{metadata.statementCalls}");

/** One sibling per library entry of each harness-call operator: the config the operator makes from the base. */
function siblingsOf() {
  const library = { ...benchmark.evolutionLibrary };
  const entries = [
    ["context", "add-prelude", "preludes"],
    ["error-recovery", "add-follow-up", "followUps"],
    ["verification", "add-check-calls", "checkCalls"],
  ];
  const siblings = [];
  for (const [direction, name, field] of entries) {
    const operator = builtinOperators.find((entry) => entry.direction === direction && entry.name === name);
    sweGymHarnessCallLibrary[field].forEach((entry, index) => {
      const id = `${direction}:${name}[${index}]`;
      if (values.only !== undefined ? !new RegExp(values.only).test(id) : !values.all && !traces(entry))
        return;
      // a library holding this one entry, so that the operator's choice is that entry
      const only = { ...library, [field]: [entry] };
      const config = applyOperator(operator, base, {
        random: createRandom(seed),
        library: only,
        toolNames: ["bash"],
      });
      if (config === null) throw new Error(`${name} does not apply with ${field}[${index}]`);
      siblings.push({
        id,
        config: { ...config, id: `${direction}-${index}` },
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
  `SWE-Gym train: ${tasks.length} tasks x ${rollouts} base rollouts (${base.id}, embedded policy seed ${seed}): ` +
    `${baseRun.length - failures.length} solved, ${failures.length} failures`,
);
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
  "sibling | rescued | re-roll | sibling-only | re-roll-only | sign-test p (one-sided) | rescued tasks",
);
for (const sibling of siblingsOf()) {
  const run = await runJobs(
    runner,
    freshJobs.map((job) => ({ ...job, harness: sibling.config })),
  );
  const rescued = run.filter((trajectory) => trajectory.success).length;
  let siblingOnly = 0;
  let rerollOnly = 0;
  const names = [];
  run.forEach((trajectory, index) => {
    const control = reroll[index]?.success === true;
    if (trajectory.success) names.push(String(freshJobs[index]?.task.metadata.instanceId));
    if (trajectory.success && !control) siblingOnly += 1;
    if (!trajectory.success && control) rerollOnly += 1;
  });
  console.log(
    `${sibling.id} | ${rescued} | ${rerollRescued} | ${siblingOnly} | ${rerollOnly} | ${signTestPValue(siblingOnly, siblingOnly + rerollOnly).toFixed(4)} | ${names.join(" ")}`,
  );
}
policy.dispose();
console.log(`wall ${((Date.now() - started) / 1000).toFixed(1)} s`);
