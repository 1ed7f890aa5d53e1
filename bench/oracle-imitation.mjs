// How far can the embedded policy's linear features go if they are fitted to the grammar's oracle paths?
// A diagnostic for the GRPO target, not a policy: it reads oracle decision paths, which were found with
// the gold SQL (bench/grammar-ceiling.mjs --paths), so no trained policy may use it.
// It replays each passing path on the training split, records every decision (its options' features and
// the oracle's choice), fits the linear weights by softmax regression from the grammar's prior (full
// batch, an L2 pull back to the prior), and evaluates the fitted weights greedily on both splits next to
// the prior. When imitating oracle choices does not raise held-out success, the features, not the
// reinforcement signal, bound what training can reach.
// Usage: pnpm build
//        node bench/grammar-ceiling.mjs --split standard-a --paths runs/paths-standard-a.jsonl
//        node bench/oracle-imitation.mjs --paths runs/paths-standard-a.jsonl [--epochs 1000]
//          [--learning-rate 1] [--l2 0] [--heldout dev]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import * as dbbench from "../packages/benchmarks-dbbench/dist/index.js";
import { createDbBenchGrammar } from "../packages/grammar-dbbench/dist/index.js";
import { runEpisode } from "../packages/harness/dist/index.js";
import { createEmbeddedPolicy } from "../packages/policy-embedded/dist/index.js";
import { evaluatePolicy } from "../packages/rescue-grpo/dist/index.js";

const { values } = parseArgs({
  options: {
    paths: { type: "string" },
    train: { type: "string", default: "standard-a" },
    heldout: { type: "string", default: "dev" },
    epochs: { type: "string", default: "1000" },
    "learning-rate": { type: "string", default: "1" },
    l2: { type: "string", default: "0" },
  },
});
if (values.paths === undefined) {
  console.error(
    "usage: node bench/oracle-imitation.mjs --paths FILE (from bench/grammar-ceiling.mjs --paths)",
  );
  process.exit(2);
}
const grammar = createDbBenchGrammar();
const benchmark = dbbench.createDbBench({ actionGrammar: grammar });
const harness = benchmark.presets[benchmark.defaultPreset];
const trainTasks = (await benchmark.loadTasks({ split: values.train })).tasks;

/** Replays one oracle path, collecting every decision it takes. */
async function replay(path) {
  const task = trainTasks.find((candidate) => candidate.id === path.taskId);
  if (task === undefined) throw new Error(`${values.paths}: task ${path.taskId} is not in ${values.train}`);
  const decisions = [];
  let step = 0;
  const policy = {
    specificationVersion: "v1",
    id: "oracle-replay",
    version: "1",
    async act(view) {
      const wanted = path.steps[step++]?.labels ?? [];
      const chosen = [];
      for (;;) {
        const next = grammar.next(view, chosen);
        if (next.done) return { content: next.content, toolCalls: next.toolCalls, logprob: null };
        const label = wanted[chosen.length];
        const index = next.decision.options.findIndex((option) => option.label === label);
        if (index < 0) throw new Error(`${path.taskId}: the path's ${label} is not offered`);
        decisions.push({ features: next.decision.options.map((option) => option.features), chosen: index });
        chosen.push(label);
      }
    },
  };
  const trajectory = await runEpisode({ task, benchmark, harness, policy, seed: 0, mode: "greedy" });
  return trajectory.success ? decisions : [];
}

const paths = readFileSync(values.paths, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line));
const decisions = [];
for (const path of paths) decisions.push(...(await replay(path)));

const prior = [...grammar.prior];
const dot = (weights, features) => features.reduce((sum, value, index) => sum + value * weights[index], 0);
const agreement = (weights) =>
  decisions.filter(({ features, chosen }) => {
    const scores = features.map((option) => dot(weights, option));
    return scores.indexOf(Math.max(...scores)) === chosen;
  }).length / decisions.length;

const weights = prior.slice();
const learningRate = Number(values["learning-rate"]);
const l2 = Number(values.l2);
for (let epoch = 0; epoch < Number(values.epochs); epoch++) {
  const gradient = new Array(weights.length).fill(0);
  for (const { features, chosen } of decisions) {
    const scores = features.map((option) => dot(weights, option));
    const top = Math.max(...scores);
    const exponentials = scores.map((score) => Math.exp(score - top));
    const total = exponentials.reduce((sum, value) => sum + value, 0);
    features.forEach((option, index) => {
      const residual = (exponentials[index] ?? 0) / total - (index === chosen ? 1 : 0);
      for (let feature = 0; feature < option.length; feature++)
        gradient[feature] += residual * (option[feature] ?? 0);
    });
  }
  for (let feature = 0; feature < weights.length; feature++)
    weights[feature] -=
      learningRate * (gradient[feature] / decisions.length + l2 * (weights[feature] - prior[feature]));
}

const priorScale = 2;
const policy = await createEmbeddedPolicy({ grammar, seed: 0, hiddenSizes: [32], priorScale });
const evaluate = async (linear) => {
  const parameters = policy.network.read();
  parameters["linear.kernel"].values = linear.map((weight) => weight * priorScale);
  policy.network.write(parameters);
  const row = {};
  for (const split of [values.train, values.heldout]) {
    const tasks = (await benchmark.loadTasks({ split })).tasks;
    const result = await evaluatePolicy({ tasks, benchmark, harness, policy, seed: 0, mode: "greedy" });
    row[split] = result.metrics.overall_cat_accuracy;
  }
  return row;
};
const percent = (value) => `${(value * 100).toFixed(1)}%`;
const before = await evaluate(prior);
const after = await evaluate(weights);
console.log(
  `${paths.length} oracle paths, ${decisions.length} decisions on ${values.train}; ${values.epochs} epochs, learning rate ${learningRate}, l2 ${l2}`,
);
console.log(
  `| weights | oracle agreement (${values.train} decisions) | ${values.train} | ${values.heldout} |`,
);
console.log("|---|---|---|---|");
console.log(
  `| prior | ${percent(agreement(prior))} | ${percent(before[values.train])} | ${percent(before[values.heldout])} |`,
);
console.log(
  `| fitted to oracle | ${percent(agreement(weights))} | ${percent(after[values.train])} | ${percent(after[values.heldout])} |`,
);
policy.dispose?.();
