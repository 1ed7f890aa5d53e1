// AppWorld siblings that change what the policy sees and can do (harness-made calls, checks, budgets)
// against the re-roll control, on the TRAIN split only (what `hs evolve --bench appworld` uses; never dev
// or test). The base harness (react) runs every task --rollouts times with the untrained embedded policy
// (the seeds `hs evolve` uses); every base failure is labelled by the rule classifier, and each sibling is
// re-run on the base failures of its direction's modes with fresh seeds, paired with the base harness
// re-rolled on the same seeds (evolve's own re-roll control). Printed per sibling: failures tried, rescued,
// the re-roll's rescues, the discordant pairs and the one-sided sign test p (evolve admits p < 0.1 with at
// least 3 rescues).
// Usage: pnpm build && node bench/appworld-sibling-vs-reroll.mjs [--tasks 40] [--rollouts 2] [--seed 0]
//   [--concurrency 2] [--only NAME,...] [--all (every base failure, whatever its modes)]
//   [--dump FILE (the base trajectories, labelled, one JSON a line)]
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { appworldHarnessCallLibrary, createAppWorld } from "../packages/benchmarks-appworld/dist/index.js";
import { applyOperator, builtinOperators, createRerollControl } from "../packages/evolution/dist/index.js";
import {
  createRuleClassifier,
  defaultModeDirections,
  episodeSeed,
  labelTrajectory,
  modesOf,
  runJobs,
} from "../packages/failure-analysis/dist/index.js";
import { createAppWorldGrammar } from "../packages/grammar-appworld/dist/index.js";
import { createRandom, observedTask } from "../packages/harness/dist/index.js";
import { createEmbeddedPolicy } from "../packages/policy-embedded/dist/index.js";

const { values } = parseArgs({
  options: {
    tasks: { type: "string", default: "40" },
    rollouts: { type: "string", default: "2" },
    seed: { type: "string", default: "0" },
    concurrency: { type: "string", default: "2" },
    only: { type: "string", default: "" },
    all: { type: "boolean", default: false },
    dump: { type: "string", default: "" },
  },
});
const seed = Number(values.seed);
const benchmark = createAppWorld();
const base = benchmark.presets[benchmark.defaultPreset];
let { tasks } = await benchmark.loadTasks({ split: benchmark.trainSplit });
tasks = tasks.slice(0, Number(values.tasks));
const policy = await createEmbeddedPolicy({ grammar: createAppWorldGrammar(), seed });
const runner = { benchmark, policy, concurrency: Number(values.concurrency) };

/** One sibling per harness-call library entry: the config its operator makes from the base. */
function siblings() {
  const entries = [
    ["context", "add-prelude", "preludes"],
    ["error-recovery", "add-follow-up", "followUps"],
    ["verification", "add-check-calls", "checkCalls"],
    ["budget", "set-steps", "stepBudgets"],
    ["guidance", "add-hint", "hints"],
  ];
  const found = [];
  for (const [direction, name, field] of entries) {
    const operator = builtinOperators.find((entry) => entry.direction === direction && entry.name === name);
    benchmark.evolutionLibrary[field].forEach((entry, index) => {
      const library = { ...benchmark.evolutionLibrary, [field]: [entry] };
      const config = applyOperator(operator, base, {
        random: createRandom(seed),
        library,
        toolNames: ["execute"],
      });
      if (config === null) throw new Error(`${name} does not apply with ${field}[${index}]`);
      found.push({
        id: `${direction}:${name}[${index}]`,
        direction,
        config: { ...config, id: `${direction}-${index}` },
      });
    });
  }
  // every follow-up at once (what several generations of add-follow-up reach)
  found.push({
    id: "error-recovery:add-follow-up[all]",
    direction: "error-recovery",
    config: {
      ...base,
      id: "error-recovery-all",
      errorRecovery: { ...base.errorRecovery, followUps: appworldHarnessCallLibrary.followUps },
    },
  });
  // the three follow-ups that give the policy a list to act on or count what its filter keeps
  found.push({
    id: "error-recovery:add-follow-up[3,4,5]",
    direction: "error-recovery",
    config: {
      ...base,
      id: "error-recovery-lists",
      errorRecovery: { ...base.errorRecovery, followUps: appworldHarnessCallLibrary.followUps.slice(3, 6) },
    },
  });
  const wanted = values.only.split(",").filter(Boolean);
  return wanted.length === 0
    ? found
    : found.filter((entry) => wanted.some((name) => entry.id.includes(name)));
}

const started = Date.now();
const baseJobs = tasks.flatMap((task) =>
  Array.from({ length: Number(values.rollouts) }, (_, rollout) => ({
    task,
    harness: base,
    seed: episodeSeed(task.id, rollout, seed),
  })),
);
const tasksById0 = new Map(tasks.map((task) => [task.id, task]));
const classifiers = [createRuleClassifier(benchmark.failureConventions)];
const baseRun = [];
for (const trajectory of await runJobs(runner, baseJobs))
  baseRun.push(
    trajectory.success
      ? trajectory
      : await labelTrajectory(trajectory, classifiers, {
          task: observedTask(benchmark, tasksById0.get(trajectory.taskId)),
        }),
  );
const failures = baseRun.filter((trajectory) => !trajectory.success);
if (values.dump !== "")
  writeFileSync(values.dump, `${baseRun.map((entry) => JSON.stringify(entry)).join("\n")}\n`);
const counts = {};
for (const failure of failures) for (const mode of modesOf(failure)) counts[mode] = (counts[mode] ?? 0) + 1;
console.log(
  `AppWorld train: ${tasks.length} tasks x ${values.rollouts}: ${baseRun.length - failures.length} solved`,
);
console.log(`modes ${JSON.stringify(counts)}`);
const tasksById = new Map(tasks.map((task) => [task.id, task]));
const reroll = createRerollControl({ runner, base, failures, taskOf: (t) => tasksById.get(t.taskId), seed });
console.log("sibling | failures | rescued | re-roll | sibling-only | re-roll-only | p");
for (const sibling of siblings()) {
  const mine = failures.filter(
    (failure) =>
      values.all ||
      modesOf(failure).some((mode) => (defaultModeDirections[mode] ?? []).includes(sibling.direction)),
  );
  if (mine.length === 0) {
    console.log(`${sibling.id} | 0 | - | - | - | - | -`);
    continue;
  }
  const { paired } = await reroll.paired(sibling.config, mine, "selection");
  console.log(
    `${sibling.id} | ${paired.failuresTried} | ${paired.rescued} | ${paired.controlRescued} | ${paired.siblingOnly} | ${paired.controlOnly} | ${paired.pValue.toFixed(4)}`,
  );
}
policy.dispose();
await benchmark.close?.();
console.log(`wall ${((Date.now() - started) / 1000).toFixed(1)} s`);
