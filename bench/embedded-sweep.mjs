// GRPO settings sweep for the embedded policy on DBBench: trains on standard-a exactly as `hs train`
// does (trainGrpo + EmbeddedGrpoLearner under the base harness) and evaluates greedy on a held-out set
// (dev unless --heldout says otherwise) as `hs eval` does, before training and every `--eval-every`
// steps, so a learning curve shows where a setting goes wrong.
// Usage: pnpm build && node bench/embedded-sweep.mjs --seed 1 --budget 1024 [--eval-every 4]
//        [--set '{"learningRate":0.02,"epochs":1,"clip":{"low":0.2,"high":0.28}}'] [--policy '{"hiddenSizes":[16]}']
//        [--learner '{"trainable":"linear"}'] [--train-slice 0:74] [--heldout standard-a:74:148]
// --train-slice trains on a slice of standard-a; --heldout SPLIT[:START:END] evaluates on a slice of a
// split (default dev), e.g. the other half of standard-a.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import * as dbbench from "../packages/benchmarks-dbbench/dist/index.js";
import { createDbBenchGrammar } from "../packages/grammar-dbbench/dist/index.js";
import { EmbeddedGrpoLearner } from "../packages/learner-embedded/dist/index.js";
import { createEmbeddedPolicy } from "../packages/policy-embedded/dist/index.js";
import {
  defaultTrainerConfig,
  embeddedLearnerOptions,
  evaluatePolicy,
  trainGrpo,
} from "../packages/rescue-grpo/dist/index.js";

const { values } = parseArgs({
  options: {
    seed: { type: "string", default: "1" },
    budget: { type: "string", default: "1024" },
    method: { type: "string", default: "grpo" },
    "eval-every": { type: "string", default: "0" },
    set: { type: "string", default: "{}" },
    policy: { type: "string", default: "{}" },
    learner: { type: "string", default: "{}" },
    "train-slice": { type: "string", default: "0:" },
    heldout: { type: "string", default: "dev" },
  },
});
const seed = Number(values.seed);
const benchmark = dbbench.createDbBench({ actionGrammar: createDbBenchGrammar() });
/** Tasks `start` to `end` of a split (`end` empty or absent: to the last task). */
const tasksOf = async (split, start = "0", end = "") =>
  (await benchmark.loadTasks({ split })).tasks.slice(Number(start), end === "" ? undefined : Number(end));
const train = await tasksOf("standard-a", ...values["train-slice"].split(":"));
const heldoutTasks = await tasksOf(...values.heldout.split(":"));
const harness = benchmark.presets[benchmark.defaultPreset];
const config = {
  ...defaultTrainerConfig(values.method, seed),
  rolloutBudget: Number(values.budget),
  checkpointEvery: 0,
  ...JSON.parse(values.set),
};
const policy = await createEmbeddedPolicy({
  grammar: benchmark.actionGrammar,
  seed,
  hiddenSizes: [32],
  ...JSON.parse(values.policy),
});
const learner = new EmbeddedGrpoLearner({
  policy,
  ...embeddedLearnerOptions(config),
  ...JSON.parse(values.learner),
});
const evaluate = async () => {
  const result = await evaluatePolicy({
    tasks: heldoutTasks,
    benchmark,
    harness,
    policy,
    seed: 0,
    mode: "greedy",
  });
  return {
    overall: result.metrics.overall_cat_accuracy,
    passes: result.trajectories.filter((trajectory) => trajectory.success).length,
    per: Object.fromEntries(Object.entries(result.perCategory).map(([name, entry]) => [name, entry.success])),
  };
};
const untrained = await evaluate();
const curve = [];
const every = Number(values["eval-every"]);
const started = Date.now();
let trainMs = 0;
const trainSuccess = [];
const summary = await trainGrpo(
  {
    benchmark,
    harness,
    tasks: train,
    policy,
    learner,
    outDirectory: await mkdtemp(join(tmpdir(), "hs-sweep-")),
    onStep: (metrics) => {
      trainMs += metrics.wallMs;
      trainSuccess.push(metrics.success);
    },
    afterStep: async (step) => {
      if (every > 0 && step % every === 0) curve.push([step, (await evaluate()).overall]);
    },
  },
  config,
);
const final = await evaluate();
const again = process.env.HS_SWEEP_TWICE ? await evaluate() : null;
if (again) console.error("again", again.overall);
console.log(
  JSON.stringify({
    seed,
    set: JSON.parse(values.set),
    policy: JSON.parse(values.policy),
    learner: JSON.parse(values.learner),
    heldout: values.heldout,
    untrained: { overall: untrained.overall, passes: untrained.passes },
    overall: final.overall,
    passes: final.passes,
    perCategory: final.per,
    curve,
    // mean sampled success of the base rollouts, per block of 8 steps
    trainSuccess: Array.from({ length: Math.ceil(trainSuccess.length / 8) }, (_, block) => {
      const part = trainSuccess.slice(block * 8, block * 8 + 8);
      return Number((part.reduce((sum, value) => sum + value, 0) / part.length).toFixed(3));
    }),
    trainSeconds: trainMs / 1000,
    totalSeconds: (Date.now() - started) / 1000,
    steps: summary.steps,
  }),
);
