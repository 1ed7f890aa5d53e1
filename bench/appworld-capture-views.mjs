// Captures the views of real episodes (train tasks only) as test fixtures of @hs/grammar-appworld: the
// prior-greedy policy of the grammar runs each task under a preset and every step's view is written.
// Usage: pnpm build && node bench/appworld-capture-views.mjs OUT.json task:preset ...
import { writeFileSync } from "node:fs";
import { createAppWorld } from "../packages/benchmarks-appworld/dist/index.js";
import { createAppWorldGrammar } from "../packages/grammar-appworld/dist/index.js";
import { runEpisode } from "../packages/harness/dist/index.js";
import { priorGreedyPolicy } from "./grammar-walk-policy.mjs";

const [out, ...specs] = process.argv.slice(2);
const grammar = createAppWorldGrammar();
const policy = priorGreedyPolicy(grammar);
const appworld = createAppWorld({ parallelism: 1 });
const { tasks } = await appworld.loadTasks({ split: "train" });
const captured = [];
for (const spec of specs) {
  const [taskId, preset] = spec.split(":");
  const task = tasks.find((candidate) => candidate.id === taskId);
  const trajectory = await runEpisode({
    task,
    benchmark: appworld,
    harness: appworld.presets[preset],
    policy,
    seed: 1,
    mode: "greedy",
  });
  captured.push({
    taskId,
    preset,
    success: trajectory.success,
    views: trajectory.steps.slice(0, 12).map((step) => step.view),
  });
  console.log(taskId, preset, trajectory.success, trajectory.steps.length);
}
writeFileSync(out, `${JSON.stringify(captured, null, 1)}\n`);
await appworld.close();
