// Could a rescued trajectory have been a base-harness trajectory? Each successful sibling rollout of a
// Harness-S run (its trajectories.jsonl) is replayed under the base harness: a scripted policy gives,
// step by step, the actions the sibling rollout took, in a fresh environment of the same task and seed.
// Per step it asks the embedded grammar whether the rollout's decisions are offered under the base view
// and write the same action there. Printed per sibling and in all: rescues replayed, replays the base
// harness also grades a success (the sibling's harness was not needed for the outcome), steps whose
// decisions the base view offers, steps whose decisions write the same action there, and rescues whose
// every step transfers. The same check on the sibling's own views must give 100% (a check of the reader).
// Only training trajectories are read (train split); no held-out task is run.
//
//   pnpm build && node bench/rescue-replay-base.mjs --bench dbbench|appworld RUN_DIR... [--limit N]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runEpisode } from "../packages/harness/dist/index.js";

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

/** Whether `labels` are offered in turn under `view`, and whether they then write `action` there. */
export function decisionsUnder(grammar, view, labels, action) {
  for (let index = 0; index < labels.length; index++) {
    const step = grammar.next(view, labels.slice(0, index));
    if (step.done || !step.decision.options.some((option) => option.label === labels[index]))
      return { offered: false, same: false };
  }
  const done = grammar.next(view, labels);
  if (!done.done) return { offered: false, same: false };
  const written = (entry) => JSON.stringify({ content: entry.content, toolCalls: entry.toolCalls ?? [] });
  return { offered: true, same: written(done) === written(action) };
}

/** A policy that gives `trajectory`'s actions in order (its last one again if the base asks for more). */
function replayPolicy(grammar, trajectory, checks) {
  let index = 0;
  return {
    specificationVersion: "v1",
    id: "replay",
    version: "replay",
    async act(view) {
      const action = trajectory.steps[Math.min(index, trajectory.steps.length - 1)]?.action;
      index++;
      checks.push(decisionsUnder(grammar, view, action.trace?.labels ?? [], action));
      return { content: action.content, toolCalls: action.toolCalls, logprob: null };
    },
  };
}

function readRescues(directory) {
  const path = join(directory, "trajectories.jsonl");
  return readFileSync(path, "utf8")
    .split("\n")
    .flatMap((line, index) => {
      if (line.trim() === "") return [];
      try {
        return [JSON.parse(line)];
      } catch (error) {
        throw new Error(`${path}:${index + 1}: not JSON (${error.message})`);
      }
    });
}

const { benchmark, grammar } = await benchmarkOf(values.bench);
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
    offered: 0,
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
  const trajectories = readRescues(directory);
  const counts = new Map();
  for (const trajectory of trajectories)
    counts.set(trajectory.harnessId, (counts.get(trajectory.harnessId) ?? 0) + 1);
  const baseId = [...counts.entries()].filter(([id]) => presets.has(id)).sort((a, b) => b[1] - a[1])[0]?.[0];
  if (baseId === undefined)
    throw new Error(`${directory}: no trajectory under one of ${[...presets.keys()].join(", ")}`);
  let rescues = trajectories.filter((trajectory) => trajectory.harnessId !== baseId && trajectory.success);
  if (Number(values.limit) > 0) rescues = rescues.slice(0, Number(values.limit));
  for (const rescue of rescues) {
    const checks = [];
    const replay = await runEpisode({
      task: await taskOf(rescue),
      benchmark,
      harness: presets.get(baseId),
      policy: replayPolicy(grammar, rescue, checks),
      seed: rescue.seed,
      mode: "sample",
    });
    const own = rescue.steps.map((step) =>
      decisionsUnder(grammar, step.view, step.action.trace?.labels ?? [], step.action),
    );
    const whole = replay.success && checks.every((check) => check.same);
    for (const key of [rescue.harnessId, "all"]) {
      add(key, "rescues");
      add(key, "baseSuccess", replay.success ? 1 : 0);
      add(key, "steps", checks.length);
      add(key, "offered", checks.filter((check) => check.offered).length);
      add(key, "same", checks.filter((check) => check.same).length);
      add(key, "ownSame", own.filter((check) => check.same).length / Math.max(1, own.length));
      add(key, "whole", whole ? 1 : 0);
    }
    if (Date.now() - lastReport > 5000) {
      lastReport = Date.now();
      process.stderr.write(`replay: ${totals.get("all").rescues} rescues replayed (${directory})\n`);
    }
  }
}
const share = (part, whole) => (whole === 0 ? "n/a" : `${((100 * part) / whole).toFixed(1)}%`);
console.log(
  "| harness | rescues | base grades a success | steps offered under the base view | same action there | every step the same and a success | own views, same action |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const [key, row] of [...totals.entries()].sort(
  ([a], [b]) => (a === "all") - (b === "all") || a.localeCompare(b),
))
  console.log(
    `| ${key} | ${row.rescues} | ${row.baseSuccess} (${share(row.baseSuccess, row.rescues)}) | ${row.offered}/${row.steps} (${share(row.offered, row.steps)}) | ${row.same}/${row.steps} (${share(row.same, row.steps)}) | ${row.whole} (${share(row.whole, row.rescues)}) | ${share(row.ownSame, row.rescues)} |`,
  );
console.log(`wall ${((Date.now() - started) / 1000).toFixed(1)} s`);
