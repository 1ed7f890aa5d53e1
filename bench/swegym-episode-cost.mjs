// Where an untrained SWE-Gym episode's time goes, against the test runs it contains. Runs the embedded
// policy (the grammar's prior) on bundled TRAIN episodes under the base harness (mini-swe-agent preset)
// and times, per episode: the wall, the workspace (reset), the policy, each command (pytest runs apart),
// the grading call (a fresh workspace, the patch, the test run; a repeated patch is a cache hit) and
// close. Prints one JSON line per episode with --verbose, then the means and the ratio of the wall to the
// time in test runs (the agent's pytest commands plus the grading call). The probes (the grammar's Python heredocs) are
// counted within otherCommands and also shown apart (meanProbeCommands, probeMsPerEpisode).
// Only the train split: the prior is tuned on it, so the held-out splits are never run here.
//
//   pnpm build && node bench/swegym-episode-cost.mjs [--limit 12] [--rollouts 1] [--seed 3] [--verbose] [--only REGEX]
import { parseArgs } from "node:util";
import { createSweGym } from "../packages/benchmarks-swegym/dist/index.js";
import { createSweGymGrammar } from "../packages/grammar-swegym/dist/index.js";
import { runEpisode } from "../packages/harness/dist/index.js";
import { createEmbeddedPolicy } from "../packages/policy-embedded/dist/index.js";

const { values } = parseArgs({
  options: {
    limit: { type: "string" },
    rollouts: { type: "string", default: "1" },
    seed: { type: "string", default: "3" },
    verbose: { type: "boolean", default: false },
    only: { type: "string" },
  },
});
const rollouts = Number(values.rollouts);
const seed = Number(values.seed);
const grammar = createSweGymGrammar();
const benchmark = await createSweGym({ actionGrammar: grammar, gradeTimeLimitMs: 120_000 });
const harness = benchmark.presets[benchmark.defaultPreset];
const policy = await createEmbeddedPolicy({ grammar, seed });

/** Per-episode timers, filled by the wrapped environment. */
let timers;
const timed = async (key, work) => {
  const began = performance.now();
  try {
    return await work();
  } finally {
    timers[key] += performance.now() - began;
  }
};
const isTestRun = (call) => /\bpytest\b/.test(String(call.arguments?.command ?? ""));
/** The grammar's probe (a Python heredoc trying rewrites in-process); its time is part of otherCommands. */
const isProbe = (call) => String(call.arguments?.command ?? "").includes("<<'HS_PROBE'");
const createEnvironment = benchmark.createEnvironment.bind(benchmark);
benchmark.createEnvironment = async (task, options) => {
  const environment = await timed("create", () => createEnvironment(task, options));
  return {
    specificationVersion: environment.specificationVersion,
    tools: environment.tools,
    reset: (resetOptions) => timed("reset", () => environment.reset(resetOptions)),
    step: async (call, stepOptions) => {
      const key = isTestRun(call) ? "testCommands" : "otherCommands";
      timers[key === "testCommands" ? "testCount" : "commandCount"]++;
      if (!isProbe(call)) return timed(key, () => environment.step(call, stepOptions));
      timers.probeCount++;
      return timed("probeCommands", () => timed(key, () => environment.step(call, stepOptions)));
    },
    grade: (gradeOptions) => timed("grade", () => environment.grade(gradeOptions)),
    close: () => timed("close", () => environment.close()),
  };
};

const { tasks } = await benchmark.loadTasks({ split: "train" });
const matching =
  values.only === undefined
    ? tasks
    : tasks.filter((task) => new RegExp(values.only).test(task.metadata.instanceId));
const chosen = values.limit === undefined ? matching : matching.slice(0, Number(values.limit));
const keys = ["create", "reset", "policy", "testCommands", "otherCommands", "grade", "close", "other"];
/** Counters beside the keys: not added into the wall's parts (probe time is inside otherCommands). */
const counters = ["testCount", "commandCount", "probeCount", "probeCommands"];
const sums = Object.fromEntries([...keys, ...counters, "wall", "steps"].map((k) => [k, 0]));
let episodes = 0;
let resolved = 0;
const started = performance.now();
for (const [taskIndex, task] of chosen.entries()) {
  for (let rollout = 0; rollout < rollouts; rollout++) {
    timers = Object.fromEntries([...keys, ...counters].map((key) => [key, 0]));
    const began = performance.now();
    const trajectory = await runEpisode({
      task,
      benchmark,
      harness,
      policy,
      seed: seed * 100000 + taskIndex * 100 + rollout,
      mode: "sample",
    });
    const wall = performance.now() - began;
    timers.policy = trajectory.timings.policyMs;
    timers.other =
      wall - keys.filter((key) => key !== "other").reduce((total, key) => total + timers[key], 0);
    episodes++;
    if (trajectory.reward === 1) resolved++;
    for (const key of Object.keys(timers)) sums[key] += timers[key];
    sums.wall += wall;
    sums.steps += trajectory.steps.length;
    if (values.verbose) {
      const row = Object.fromEntries(Object.entries(timers).map(([key, value]) => [key, Math.round(value)]));
      process.stderr.write(
        `${JSON.stringify({ task: task.metadata.instanceId, rollout, resolved: trajectory.reward === 1, steps: trajectory.steps.length, wall: Math.round(wall), ...row })}\n`,
      );
    }
  }
}
const mean = (value) => Number((value / Math.max(1, episodes)).toFixed(0));
const testMs = sums.testCommands + sums.grade;
console.log(
  JSON.stringify({
    split: "train",
    tasks: chosen.length,
    episodes,
    resolvedEpisodes: resolved,
    meanSteps: Number((sums.steps / Math.max(1, episodes)).toFixed(2)),
    meanTestCommands: Number((sums.testCount / Math.max(1, episodes)).toFixed(2)),
    meanOtherCommands: Number((sums.commandCount / Math.max(1, episodes)).toFixed(2)),
    meanProbeCommands: Number((sums.probeCount / Math.max(1, episodes)).toFixed(2)),
    probeMsPerEpisode: mean(sums.probeCommands),
    msPerEpisode: Object.fromEntries([...keys, "wall"].map((key) => [key, mean(sums[key])])),
    testRunMsPerEpisode: mean(testMs),
    wallOverTestRuns: Number((sums.wall / Math.max(1, testMs)).toFixed(2)),
    wallSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  }),
);
await benchmark.close?.();
