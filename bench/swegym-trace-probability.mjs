// How likely each trained SWE-Gym policy is to run the ranked trace under the base harness: over the
// views of each train task's first base-harness trajectory (from one run's trajectories) where the grammar
// offers `kind:trace`, the probability of `kind:trace` at the first such view and its largest over the
// episode, and of `trace:ranked` after it at the first, for the untrained policy and each method's final
// weights, every seed of one `hs quickstart` experiment (and `--arm NAME=DIR` runs beside it). Prints
// means over tasks per policy and seed. It reads views the base harness showed the policy, never a task
// record.
//
//   pnpm build && node bench/swegym-trace-probability.mjs runs/exp-swegym-3 [--methods grpo,harness-s] \
//     [--arm harness-s-credit=runs/exp-swegym-3/runs/harness-s-credit] [--views-from grpo/seed-1] \
//     [--seeds 1,2]   (default: the experiment's seeds; an arm trained on fewer seeds needs --seeds)
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { grammarPlugin } from "../packages/grammar-swegym/dist/index.js";
import { readTrajectories } from "../packages/harness/dist/index.js";
import { decisionProbability } from "../packages/learner-embedded/dist/index.js";
import { createEmbeddedPolicy, readPolicyConfig } from "../packages/policy-embedded/dist/index.js";
import { armsOf } from "./arm-option.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    methods: { type: "string", default: "grpo,harness-s" },
    arm: { type: "string", multiple: true, default: [] },
    "views-from": { type: "string", default: "grpo/seed-1" },
    seeds: { type: "string" },
  },
});
const [experiment] = positionals;
if (experiment === undefined || !existsSync(join(experiment, "results.json"))) {
  process.stderr.write(
    "usage: node bench/swegym-trace-probability.mjs EXPERIMENT_DIR (a finished hs quickstart)\n",
  );
  process.exit(2);
}
const results = JSON.parse(readFileSync(join(experiment, "results.json"), "utf8"));
const seeds = values.seeds === undefined ? results.seeds : values.seeds.split(",").map(Number);
const grammar = grammarPlugin.createGrammar();

/** The views of each task's first base-harness trajectory that offer `kind:trace`, by task. */
async function traceViews(file) {
  const { records, problems } = await readTrajectories(file);
  if (problems.length > 0) throw problems[0];
  const views = new Map();
  for (const trajectory of records) {
    if (views.has(trajectory.taskId) || trajectory.harnessId.startsWith("sibling-")) continue;
    const offering = trajectory.steps
      .map(({ view }) => view)
      .filter((view) => {
        const next = grammar.next(view, []);
        return !next.done && next.decision.options.some((option) => option.label === "kind:trace");
      });
    if (offering.length > 0) views.set(trajectory.taskId, offering);
  }
  return [...views.values()];
}

async function policyOf(seed, directory) {
  if (directory === undefined) return createEmbeddedPolicy({ grammar, seed });
  const weights = join(directory, "final");
  if (!existsSync(weights)) {
    process.stderr.write(
      `${weights}: missing (no trained seed ${seed} there; choose the seeds with --seeds)\n`,
    );
    process.exit(2);
  }
  const config = await readPolicyConfig(weights);
  const policy = await createEmbeddedPolicy({ grammar, ...config });
  await policy.load(weights);
  return policy;
}

const episodes = await traceViews(join(experiment, "runs", values["views-from"], "trajectories.jsonl"));
const mean = (list) => list.reduce((sum, value) => sum + value, 0) / Math.max(1, list.length);
const sources = [
  ["untrained", () => undefined],
  ...values.methods
    .split(",")
    .map((method) => [method, (seed) => join(experiment, "runs", method, `seed-${seed}`)]),
  ...armsOf(values.arm).map(({ name, directory }) => [name, (seed) => join(directory, `seed-${seed}`)]),
];
process.stdout.write(
  `${episodes.length} train episodes with views offering kind:trace (${episodes.flat().length} views; from runs/${values["views-from"]})\n\n| policy | seed | P(kind:trace), first view | P(kind:trace), largest in the episode | P(trace:ranked \\| trace), first view |\n| --- | --- | --- | --- | --- |\n`,
);
for (const [name, directoryOf] of sources) {
  for (const seed of seeds) {
    const policy = await policyOf(seed, directoryOf(seed));
    const probability = (view, chosen, label) => decisionProbability(policy, grammar, view, chosen, label);
    const trace = episodes.map((views) => views.map((view) => probability(view, [], "kind:trace")));
    const ranked = episodes.map((views) => probability(views[0], ["kind:trace"], "trace:ranked"));
    const first = mean(trace.map((list) => list[0]));
    const largest = mean(trace.map((list) => Math.max(...list)));
    process.stdout.write(
      `| ${name} | ${seed} | ${first.toExponential(2)} | ${largest.toExponential(2)} | ${mean(ranked).toFixed(4)} |\n`,
    );
    policy.dispose();
  }
}
