// The untrained embedded policy (the SWE-Gym grammar's designer prior) sampled on the bundled TRAIN
// split under the base harness (mini-swe-agent preset), graded by the real SWE-bench grader. Prints
// resolved episodes, tasks with at least one resolution, mean steps and seconds per episode.
// Only the train split: the prior is tuned on it, so the held-out splits are never run here.
//
// --harness FILE runs under a harness config (JSON, e.g. a pool sibling's `harness`) in place of the base.
//
//   pnpm build && node bench/swegym-prior-train.mjs [--limit 20] [--rollouts 2] [--seed 0] [--verbose] [--only REGEX]
//     [--harness FILE]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { createSweGym } from "../packages/benchmarks-swegym/dist/index.js";
import { createSweGymGrammar } from "../packages/grammar-swegym/dist/index.js";
import { runEpisode } from "../packages/harness/dist/index.js";
import { createEmbeddedPolicy } from "../packages/policy-embedded/dist/index.js";
import { harnessConfigSchema } from "../packages/spec/dist/index.js";

const { values } = parseArgs({
  options: {
    limit: { type: "string" },
    rollouts: { type: "string", default: "2" },
    seed: { type: "string", default: "0" },
    verbose: { type: "boolean", default: false },
    only: { type: "string" },
    harness: { type: "string" },
  },
});
const rollouts = Number(values.rollouts);
const seed = Number(values.seed);
const grammar = createSweGymGrammar();
// grading runs are cut at 120 s (SWE-bench's default is 1800 s): a submitted rewrite that loops
// forever would otherwise hold the shared machine for half an hour
const benchmark = await createSweGym({ actionGrammar: grammar, gradeTimeLimitMs: 120_000 });
const harness =
  values.harness === undefined
    ? benchmark.presets[benchmark.defaultPreset]
    : harnessConfigSchema.parse(JSON.parse(readFileSync(values.harness, "utf8")));
const policy = await createEmbeddedPolicy({ grammar, seed });
const { tasks } = await benchmark.loadTasks({ split: "train" });
const matching =
  values.only === undefined
    ? tasks
    : tasks.filter((task) => new RegExp(values.only).test(task.metadata.instanceId));
const chosen = values.limit === undefined ? matching : matching.slice(0, Number(values.limit));
const started = Date.now();
const row = { episodes: 0, resolved: 0, tasksResolved: 0, steps: 0 };
for (const [taskIndex, task] of chosen.entries()) {
  let any = false;
  for (let rollout = 0; rollout < rollouts; rollout++) {
    const trajectory = await runEpisode({
      task,
      benchmark,
      harness,
      policy,
      // a distinct episode seed per task and rollout, so tasks do not share one random stream
      seed: seed * 100000 + taskIndex * 100 + rollout,
      mode: "sample",
    });
    row.episodes++;
    row.steps += trajectory.steps.length;
    const resolved = trajectory.reward === 1;
    if (resolved) row.resolved++;
    any ||= resolved;
    if (values.verbose) {
      const labels = trajectory.steps.map((step) => step.action?.trace?.labels?.join(" ") ?? "?");
      process.stderr.write(
        `${task.metadata.instanceId}#${rollout} ${resolved ? "RESOLVED" : "-"}\n  ${labels.join("\n  ")}\n`,
      );
    } else {
      process.stderr.write(
        `${task.metadata.instanceId}#${rollout}: ${resolved ? "resolved" : "unresolved"}\n`,
      );
    }
  }
  if (any) row.tasksResolved++;
}
const wall = (Date.now() - started) / 1000;
console.log(
  JSON.stringify({
    split: "train",
    tasks: chosen.length,
    rolloutsPerTask: rollouts,
    seed,
    tasksWithResolution: row.tasksResolved,
    episodes: row.episodes,
    resolvedEpisodes: row.resolved,
    resolvedShare: Number((row.resolved / Math.max(1, row.episodes)).toFixed(3)),
    meanSteps: Number((row.steps / Math.max(1, row.episodes)).toFixed(2)),
    secondsPerEpisode: Number((wall / Math.max(1, row.episodes)).toFixed(2)),
    wallSeconds: Number(wall.toFixed(1)),
  }),
);
await benchmark.close?.();
