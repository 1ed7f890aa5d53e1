// Probe: the grammar's prior, greedy, on some train tasks (development aid; train split only).
import { createAppWorld } from "../packages/benchmarks-appworld/dist/index.js";
import { createAppWorldGrammar } from "../packages/grammar-appworld/dist/index.js";
import { runEpisode } from "../packages/harness/dist/index.js";
import { priorGreedyPolicy } from "./grammar-walk-policy.mjs";

const grammar = createAppWorldGrammar();
const greedyPolicy = priorGreedyPolicy(grammar);
const appworld = createAppWorld({ parallelism: 2 });
const { tasks } = await appworld.loadTasks({ split: process.argv[2] ?? "train" });
const only = process.argv[3];
const chosen = tasks
  .filter((task) => only === undefined || task.id.startsWith(only))
  .filter((_, i) => only !== undefined || i % 3 === 0);
const preset = process.argv[4] ?? "react";
let passed = 0;
for (const task of chosen) {
  const trajectory = await runEpisode({
    task,
    benchmark: appworld,
    harness: appworld.presets[preset],
    policy: greedyPolicy,
    seed: 1,
    mode: "greedy",
  });
  passed += trajectory.success ? 1 : 0;
  console.log(task.id, trajectory.success, trajectory.steps.length, trajectory.endReason);
  if (only !== undefined)
    for (const step of trajectory.steps)
      console.log(
        "---\n" +
          (step.action?.content ?? JSON.stringify(step).slice(0, 300)) +
          "\n>>> " +
          step.feedback.slice(0, 700),
      );
}
console.log(`passed ${passed}/${chosen.length}`);
await appworld.close();
