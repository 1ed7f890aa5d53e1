// Could a rescued trajectory have been a base-harness trajectory? Each successful sibling rollout of a
// Harness-S run (its trajectories.jsonl) is replayed under the base harness as `hs train --rescue-replay
// base` replays it (`replayEpisode` of @hs/harness with `embeddedReplayAction` of @hs/learner-embedded:
// the rollout's actions in a fresh environment of the same task and seed, each one kept only where the
// grammar offers its decisions under the base view and they write the same action there). Printed per
// sibling and in all: rescues replayed, replays the base harness also grades a success (the sibling's
// harness was not needed for the outcome), steps whose action transfers, and rescues whose every step
// transfers with a success (what the replay keeps). The same check on the sibling's own views must give
// 100% (a check of the reader). Only training trajectories are read (train split); no held-out task is run.
//
//   pnpm build && node bench/rescue-replay-base.mjs --bench dbbench|appworld RUN_DIR... [--limit N]
import { join } from "node:path";
import { parseArgs } from "node:util";
import { readTrajectories, replayEpisode } from "../packages/harness/dist/index.js";
import { embeddedReplayAction } from "../packages/learner-embedded/dist/index.js";
import { createEmbeddedPolicy } from "../packages/policy-embedded/dist/index.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { bench: { type: "string" }, limit: { type: "string", default: "0" } },
});

/** The benchmark and its grammar, built the way the bench scripts of each benchmark build them. */
async function benchmarkOf(name) {
  if (name === "dbbench") {
    const { createDbBench } = await import("../packages/benchmarks-dbbench/dist/index.js");
    const { createDbBenchGrammar } = await import("../packages/grammar-dbbench/dist/index.js");
    return { benchmark: createDbBench(), grammar: createDbBenchGrammar() };
  }
  if (name === "appworld") {
    const { createAppWorld } = await import("../packages/benchmarks-appworld/dist/index.js");
    const { createAppWorldGrammar } = await import("../packages/grammar-appworld/dist/index.js");
    return { benchmark: createAppWorld(), grammar: createAppWorldGrammar() };
  }
  throw new Error(`--bench must be dbbench or appworld, got ${JSON.stringify(name)}`);
}

/** The run's trajectories; a malformed line stops the script, named with its file and line. */
async function readRun(directory) {
  const { records, problems } = await readTrajectories(join(directory, "trajectories.jsonl"));
  if (problems.length > 0) throw new Error(problems.map((problem) => problem.message).join("\n"));
  return records;
}

const { benchmark, grammar } = await benchmarkOf(values.bench);
// the log-probabilities the replayed actions get are not used here, only whether they transfer
const actionUnder = embeddedReplayAction(await createEmbeddedPolicy({ grammar, seed: 0 }));
if (positionals.length === 0)
  throw new Error("give one or more run directories (each with trajectories.jsonl)");
const presets = new Map(Object.values(benchmark.presets).map((preset) => [preset.id, preset]));
const tasksBySplit = new Map();
async function taskOf(trajectory) {
  if (!tasksBySplit.has(trajectory.split)) {
    const { tasks } = await benchmark.loadTasks({ split: trajectory.split });
    tasksBySplit.set(trajectory.split, new Map(tasks.map((task) => [task.id, task])));
  }
  const task = tasksBySplit.get(trajectory.split).get(trajectory.taskId);
  if (task === undefined) throw new Error(`task ${trajectory.taskId} is not in split ${trajectory.split}`);
  return task;
}

const totals = new Map();
const add = (key, field, amount = 1) => {
  const row = totals.get(key) ?? {
    rescues: 0,
    baseSuccess: 0,
    steps: 0,
    same: 0,
    ownSame: 0,
    whole: 0,
  };
  row[field] += amount;
  totals.set(key, row);
};
const started = Date.now();
let lastReport = started;
for (const directory of positionals) {
  const trajectories = await readRun(directory);
  const counts = new Map();
  for (const trajectory of trajectories)
    counts.set(trajectory.harnessId, (counts.get(trajectory.harnessId) ?? 0) + 1);
  const baseId = [...counts.entries()].filter(([id]) => presets.has(id)).sort((a, b) => b[1] - a[1])[0]?.[0];
  if (baseId === undefined)
    throw new Error(`${directory}: no trajectory under one of ${[...presets.keys()].join(", ")}`);
  let rescues = trajectories.filter((trajectory) => trajectory.harnessId !== baseId && trajectory.success);
  if (Number(values.limit) > 0) rescues = rescues.slice(0, Number(values.limit));
  for (const rescue of rescues) {
    const transfers = [];
    const replay = await replayEpisode({
      task: await taskOf(rescue),
      benchmark,
      harness: presets.get(baseId),
      trajectory: rescue,
      actionUnder: (view, action) => {
        const written = actionUnder(view, action);
        transfers.push(written !== null);
        return written;
      },
    });
    const own = rescue.steps.filter((step) => actionUnder(step.view, step.action) !== null).length;
    for (const key of [rescue.harnessId, "all"]) {
      add(key, "rescues");
      add(key, "baseSuccess", replay.trajectory.success ? 1 : 0);
      add(key, "steps", transfers.length);
      add(key, "same", transfers.filter(Boolean).length);
      add(key, "ownSame", own / Math.max(1, rescue.steps.length));
      add(key, "whole", replay.transferred && replay.trajectory.success ? 1 : 0);
    }
    if (Date.now() - lastReport > 5000) {
      lastReport = Date.now();
      process.stderr.write(`replay: ${totals.get("all").rescues} rescues replayed (${directory})\n`);
    }
  }
}
const share = (part, whole) => (whole === 0 ? "n/a" : `${((100 * part) / whole).toFixed(1)}%`);
console.log(
  "| harness | rescues | base grades a success | steps whose action transfers | every step transfers, a success | own views, transfers |",
);
console.log("| --- | --- | --- | --- | --- | --- |");
for (const [key, row] of [...totals.entries()].sort(
  ([a], [b]) => (a === "all") - (b === "all") || a.localeCompare(b),
))
  console.log(
    `| ${key} | ${row.rescues} | ${row.baseSuccess} (${share(row.baseSuccess, row.rescues)}) | ${row.same}/${row.steps} (${share(row.same, row.steps)}) | ${row.whole} (${share(row.whole, row.rescues)}) | ${share(row.ownSame, row.rescues)} |`,
  );
console.log(`wall ${((Date.now() - started) / 1000).toFixed(1)} s`);
