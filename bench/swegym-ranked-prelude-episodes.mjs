// TRAIN only: how the untrained embedded policy works a task under the base harness and under the
// ranked-trace prelude (`context:add-prelude[1]` of the SWE-Gym library), and where the gold patch's
// changed line stands in the prelude's ranking. This script reads the gold patch to print that place;
// no policy, router or harness sees it. One line per episode: the task, the harness, resolved or not, the
// gold lines, their places in the ranking (-1: not listed), then each step (its command's kind, the lines
// a probe tried in [], the line an edit changed in {}).
// Usage: pnpm build && node bench/swegym-ranked-prelude-episodes.mjs [--tasks durations-6,exprcalc-3] [--rollouts 2] [--seed 0]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { createSweGym, sweGymHarnessCallLibrary } from "../packages/benchmarks-swegym/dist/index.js";
import { applyOperator, builtinOperators } from "../packages/evolution/dist/index.js";
import { episodeSeed, runJobs } from "../packages/failure-analysis/dist/index.js";
import { createSweGymGrammar } from "../packages/grammar-swegym/dist/index.js";
import { createRandom } from "../packages/harness/dist/index.js";
import { createEmbeddedPolicy } from "../packages/policy-embedded/dist/index.js";

const { values } = parseArgs({
  options: {
    tasks: { type: "string" },
    rollouts: { type: "string", default: "2" },
    seed: { type: "string", default: "0" },
  },
});
const seed = Number(values.seed);
const grammar = createSweGymGrammar();
const benchmark = await createSweGym({ actionGrammar: grammar, gradeTimeLimitMs: 120_000 });
const base = benchmark.presets[benchmark.defaultPreset];
const operator = builtinOperators.find(
  (entry) => entry.direction === "context" && entry.name === "add-prelude",
);
const ranked = applyOperator(operator, base, {
  random: createRandom(seed),
  library: { ...benchmark.evolutionLibrary, preludes: [sweGymHarnessCallLibrary.preludes[1]] },
  toolNames: ["bash"],
});
const records = new Map(
  readFileSync(new URL("../packages/benchmarks-swegym/data/train.jsonl", import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line))
    .map((record) => [record.instance_id, record]),
);
const wanted = values.tasks?.split(",").map((name) => `harness-s__${name}`);
const { tasks } = await benchmark.loadTasks({ split: "train" });
const chosen = tasks.filter((task) => wanted === undefined || wanted.includes(task.metadata.instanceId));

/** `file:line` of every line a unified diff removes or replaces, in the old file's numbering. */
function goldLines(patch) {
  const found = [];
  let file = null;
  let line = 0;
  for (const row of patch.split("\n")) {
    if (row.startsWith("+++ ")) file = row.slice(4).replace(/^b\//, "");
    else if (row.startsWith("--- ")) continue;
    else if (/^@@ -(\d+)/.test(row)) line = Number(/^@@ -(\d+)/.exec(row)[1]);
    else if (row.startsWith("-")) found.push(`${file}:${line++}`);
    else if (row.startsWith(" ")) line++;
  }
  return found;
}

/** Each step as its command's kind, with the lines a probe tried and the line an edit changed. */
function stepSummary(step) {
  const command = String(step.parsed?.[0]?.arguments?.command ?? "");
  const kind = /<<'(HS_\w+)'/.exec(command)?.[1] ?? command.split(" ")[0];
  const output = step.executed.map((entry) => String(entry.result.content ?? "")).join("");
  const probed = [...output.matchAll(/^probed (\S+) with/gm)].map((match) => match[1]);
  const edited = /^edited (\S+?:\d+):/m.exec(output)?.[1];
  return `${kind}${probed.length > 0 ? `[${probed.join(",")}]` : ""}${edited ? `{${edited}}` : ""}`;
}

const jobs = chosen.flatMap((task) =>
  Array.from({ length: Number(values.rollouts) }, (_, rollout) =>
    [
      ["base", base],
      ["ranked", ranked],
    ].map(([name, harness]) => ({ task, harness, name, seed: episodeSeed(task.id, rollout, seed) })),
  ).flat(),
);
const policy = await createEmbeddedPolicy({ grammar, seed });
const trajectories = await runJobs({ benchmark, policy, concurrency: 2 }, jobs);
trajectories.forEach((trajectory, index) => {
  const job = jobs[index];
  const gold = goldLines(records.get(job.task.metadata.instanceId).patch);
  const prelude = (trajectory.preludeCalls ?? []).map((call) => String(call.result.content ?? "")).join("\n");
  const listed = prelude.split("\n").filter((row) => /^\S+\.py:\d+ x\d+\t/.test(row));
  const places = gold.map((line) => listed.findIndex((row) => row.startsWith(`${line} `)));
  console.log(
    `${job.task.metadata.instanceId} ${job.name} ${trajectory.success ? "resolved" : "unresolved"} gold ${gold.join(",")} ` +
      `place ${places.join(",")} :: ${trajectory.steps.map(stepSummary).join(" ")}`,
  );
});
policy.dispose();
