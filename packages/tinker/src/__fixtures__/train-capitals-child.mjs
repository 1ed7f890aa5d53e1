// A GRPO run through the Tinker API on the capitals test benchmark, as a separate process that a
// test can SIGKILL. The test server runs in the parent, so its state outlives the child.
// Usage: node train-capitals-child.mjs SERVER_URL OUT_DIR BUDGET   (needs the package built: dist/)
import { fileURLToPath } from "node:url";
import { defaultTrainerConfig, trainGrpo } from "@hs/rescue-grpo";
import { ChatRenderer, TinkerClient, TinkerGrpoLearner, TinkerSamplerPolicy } from "../../dist/index.js";
import { capitalsHarness, createCapitalsBenchmark } from "../../dist/server/index.js";

const [url, outDirectory, budgetText] = process.argv.slice(2);
const baseModel = "hs/tiny-capitals";
const renderer = await ChatRenderer.fromDirectory(
  fileURLToPath(new URL("./tiny-tokenizer", import.meta.url)),
);
const client = new TinkerClient({ baseUrl: url });
await client.createSession(["resume-test"]);
const policy = new TinkerSamplerPolicy({ client, renderer, baseModel, maxTokens: 3 });
const learner = new TinkerGrpoLearner({
  client,
  policy,
  baseModel,
  loraConfig: { rank: 4, seed: 11 },
  runName: "resume",
  adamParams: { learning_rate: 1, beta1: 0.9, beta2: 0.95, eps: 1e-8 },
});
const benchmark = createCapitalsBenchmark();
const { tasks } = await benchmark.loadTasks({ split: "train" });
const config = {
  ...defaultTrainerConfig("grpo", 3),
  groupSize: 4,
  promptsPerStep: 2,
  rolloutBudget: Number(budgetText),
  checkpointEvery: 2,
};
const summary = await trainGrpo(
  { benchmark, harness: capitalsHarness, tasks, policy, learner, outDirectory },
  config,
);
await client.close();
process.stdout.write(`${JSON.stringify(summary)}\n`);
