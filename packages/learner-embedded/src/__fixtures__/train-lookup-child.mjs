// A training run on the lookup test benchmark, as a separate process that a test can SIGKILL.
// Usage: node train-lookup-child.mjs OUT_DIR SEED BUDGET   (needs the package built: dist/)
import { createLookupBenchmark, createLookupGrammar, lookupTextHarness } from "@hs/harness/test-environments";
import { createEmbeddedPolicy } from "@hs/policy-embedded";
import { defaultTrainerConfig, trainGrpo } from "@hs/rescue-grpo";
import { EmbeddedGrpoLearner } from "../../dist/index.js";

const [outDirectory, seedText, budgetText] = process.argv.slice(2);
const seed = Number(seedText);
const benchmark = createLookupBenchmark();
const { tasks } = await benchmark.loadTasks({});
const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed });
const learner = new EmbeddedGrpoLearner({ policy, learningRate: 0.05 });
const config = {
  ...defaultTrainerConfig("grpo", seed),
  groupSize: 4,
  promptsPerStep: 2,
  rolloutBudget: Number(budgetText),
  checkpointEvery: 3,
};
const summary = await trainGrpo(
  { benchmark, harness: lookupTextHarness, tasks, policy, learner, outDirectory },
  config,
);
process.stdout.write(`${JSON.stringify(summary)}\n`);
