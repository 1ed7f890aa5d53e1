// Episodes in flight at once within one process (`hs evolve --concurrency N`, `hs profile
// --concurrency N`; quickstart gives those stages every worker): SWE-Gym train episodes of the
// untrained embedded policy under the base harness, run once one at a time (the baseline) and once N
// at a time, in this run. Prints both wall times, their ratio, and whether every trajectory's actions
// and reward came out the same.
//
//   pnpm build && node bench/episode-concurrency.mjs [--tasks 12] [--concurrency 2]
import { parseArgs } from "node:util";
import { createSweGym } from "../packages/benchmarks-swegym/dist/index.js";
import { episodeSeed, runJobs } from "../packages/failure-analysis/dist/index.js";
import { createSweGymGrammar } from "../packages/grammar-swegym/dist/index.js";
import { createEmbeddedPolicy } from "../packages/policy-embedded/dist/index.js";

const { values } = parseArgs({
  options: { tasks: { type: "string", default: "12" }, concurrency: { type: "string", default: "2" } },
});
const grammar = createSweGymGrammar();
const policy = await createEmbeddedPolicy({ grammar, seed: 0 });

async function timed(concurrency) {
  // a fresh benchmark per run, so the second run cannot reuse the first one's grade cache
  const benchmark = await createSweGym({ actionGrammar: grammar, gradeTimeLimitMs: 120_000 });
  const { tasks } = await benchmark.loadTasks({ split: "train" });
  const chosen = tasks.slice(0, Number(values.tasks));
  const harness = benchmark.presets[benchmark.defaultPreset];
  const jobs = chosen.map((task) => ({ task, harness, seed: episodeSeed(task.id, 0, 0) }));
  const started = Date.now();
  const trajectories = await runJobs({ benchmark, policy, concurrency }, jobs);
  const seconds = (Date.now() - started) / 1000;
  await benchmark.close?.();
  const outline = trajectories.map((trajectory) => ({
    reward: trajectory.reward,
    actions: trajectory.steps.map((step) => step.action?.trace?.labels?.join(" ") ?? ""),
  }));
  return { seconds, outline };
}

const one = await timed(1);
const many = await timed(Number(values.concurrency));
console.log(
  JSON.stringify({
    episodes: Number(values.tasks),
    concurrency: Number(values.concurrency),
    secondsOneAtATime: Number(one.seconds.toFixed(1)),
    secondsConcurrent: Number(many.seconds.toFixed(1)),
    speedup: Number((one.seconds / many.seconds).toFixed(2)),
    sameTrajectories: JSON.stringify(one.outline) === JSON.stringify(many.outline),
  }),
);
