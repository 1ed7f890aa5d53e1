// Where the rescues of one `hs quickstart` experiment's Harness-S runs spent their rollouts and where
// they saved a group: per task category (the benchmark's task family, which routers see), summed over
// seeds, from each run's trajectories (DIR/runs/harness-s/seed-S/trajectories.jsonl: a rescue attempt is
// the sibling rollouts of one task at one policy version). Then what an online gate would have saved:
// within a run, skip the rescue of a category after GATE failed rescues of it and none saved (the
// gate reads only rewards of the run's own rescue rollouts, as the trainer does). Last, the price: groups
// saved per rescue rollout against the groups with a signal (some but not all rollouts succeeded) per
// rollout of GRPO's runs (DIR/runs/grpo/seed-S), the same experiment at the same budget.
//
//   node bench/rescue-by-family.mjs runs/exp-appworld [--gates 1,2,3] [--arm harness-s]
//
// --arm names the runs read (DIR/runs/ARM/seed-S; default harness-s), e.g. an arm trained beside the quickstart's.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { readTrajectories } from "../packages/harness/dist/index.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { gates: { type: "string", default: "1,2,3" }, arm: { type: "string", default: "harness-s" } },
});
const directory = positionals[0];
const runsDirectory = directory === undefined ? "" : join(directory, "runs", values.arm);
if (directory === undefined || !existsSync(runsDirectory)) {
  process.stderr.write(
    `usage: node bench/rescue-by-family.mjs EXPERIMENT_DIR [--gates 1,2] [--arm harness-s]\n` +
      (directory === undefined ? "" : `${runsDirectory}: no runs of a rescue arm there\n`),
  );
  process.exit(2);
}
const baseId = JSON.parse(readFileSync(join(directory, "pool.json"), "utf8")).base.id;

/** The trajectories of one run's trajectories.jsonl (@hs/harness's reader); a bad line stops the script, named by file and line. */
async function trajectoriesOf(seedDirectory) {
  const { records, problems } = await readTrajectories(join(seedDirectory, "trajectories.jsonl"));
  if (problems.length > 0) throw problems[0];
  return records;
}

/** Each rescue attempt of one run, in order: category, rollouts, whether a rollout succeeded. */
async function rescueAttempts(seedDirectory) {
  const attempts = new Map();
  for (const row of await trajectoriesOf(seedDirectory)) {
    if (row.harnessId === baseId) continue;
    const key = `${row.policyVersion}\u0000${row.taskId}`;
    const attempt = attempts.get(key) ?? {
      category: row.category,
      rollouts: 0,
      saved: false,
      bySibling: new Map(),
    };
    attempt.rollouts += 1;
    attempt.saved ||= row.success === true;
    attempt.bySibling.set(row.harnessId, [
      ...(attempt.bySibling.get(row.harnessId) ?? []),
      row.success === true,
    ]);
    attempts.set(key, attempt);
  }
  return [...attempts.values()];
}

const runs = [];
for (const name of readdirSync(runsDirectory)
  .filter((name) => name.startsWith("seed-") && existsSync(join(runsDirectory, name, "trajectories.jsonl")))
  .sort())
  runs.push({ seed: name, attempts: await rescueAttempts(join(runsDirectory, name)) });

const byCategory = new Map();
for (const attempt of runs.flatMap((run) => run.attempts)) {
  const row = byCategory.get(attempt.category) ?? { attempts: 0, saved: 0, rollouts: 0 };
  row.attempts += 1;
  row.saved += attempt.saved ? 1 : 0;
  row.rollouts += attempt.rollouts;
  byCategory.set(attempt.category, row);
}
const all = runs.flatMap((run) => run.attempts);
const spent = all.reduce((sum, attempt) => sum + attempt.rollouts, 0);
const savedTotal = all.filter((attempt) => attempt.saved).length;
process.stdout.write(
  `${runs.length} runs (${runs.map((run) => run.seed).join(", ")}): ${all.length} rescues, ${savedTotal} saved a group, ${spent} rollouts\n\n`,
);
process.stdout.write(`${"category".padEnd(40)} saved/attempts  rollouts\n`);
for (const [category, row] of [...byCategory].sort(
  (a, b) => b[1].saved - a[1].saved || b[1].attempts - a[1].attempts,
))
  process.stdout.write(
    `${category.padEnd(40)} ${`${row.saved}/${row.attempts}`.padStart(14)}  ${String(row.rollouts).padStart(8)}\n`,
  );
const never = [...byCategory.values()].filter((row) => row.saved === 0);
process.stdout.write(
  `\n${never.length} of ${byCategory.size} categories never saved (${never.reduce((sum, row) => sum + row.rollouts, 0)} of ${spent} rollouts)\n`,
);

/** Rollouts a within-run gate would not have spent, and the saved groups it would have lost. */
function gate(after) {
  let skipped = 0;
  let lost = 0;
  for (const run of runs) {
    const failures = new Map();
    const saves = new Map();
    for (const attempt of run.attempts) {
      if ((failures.get(attempt.category) ?? 0) >= after && (saves.get(attempt.category) ?? 0) === 0) {
        skipped += attempt.rollouts;
        lost += attempt.saved ? 1 : 0;
        continue;
      }
      const counts = attempt.saved ? saves : failures;
      counts.set(attempt.category, (counts.get(attempt.category) ?? 0) + 1);
    }
  }
  return { skipped, lost };
}
for (const after of values.gates.split(",").map(Number)) {
  const { skipped, lost } = gate(after);
  process.stdout.write(
    `gate after ${after} failed rescue(s) of a category, none saved: ${skipped} of ${spent} rollouts not spent, ${lost} of ${savedTotal} saved groups lost\n`,
  );
}

/** Groups saved and rollouts spent had each sibling of each rescue spent only its first `first` rollouts. */
function firstRollouts(first) {
  let saved = 0;
  let rollouts = 0;
  for (const attempt of all) {
    const outcomes = [...attempt.bySibling.values()].map((successes) => successes.slice(0, first));
    rollouts += outcomes.reduce((sum, successes) => sum + successes.length, 0);
    saved += outcomes.some((successes) => successes.includes(true)) ? 1 : 0;
  }
  return { saved, rollouts };
}
for (const first of [1, 2]) {
  const { saved, rollouts } = firstRollouts(first);
  process.stdout.write(
    `the first ${first} rollout(s) of each sibling: ${saved} groups saved in ${rollouts} rollouts\n`,
  );
}

/** Base-harness groups of GRPO's runs with a signal, and their rollouts. */
async function grpoSignal() {
  const grpoDirectory = join(directory, "runs", "grpo");
  if (!existsSync(grpoDirectory)) return null;
  const groups = new Map();
  let rollouts = 0;
  for (const name of readdirSync(grpoDirectory).filter((entry) => entry.startsWith("seed-"))) {
    if (!existsSync(join(grpoDirectory, name, "trajectories.jsonl"))) continue;
    for (const row of await trajectoriesOf(join(grpoDirectory, name))) {
      rollouts += 1;
      const key = `${name}\u0000${row.policyVersion}\u0000${row.taskId}`;
      const group = groups.get(key) ?? { successes: 0, size: 0 };
      group.size += 1;
      group.successes += row.success === true ? 1 : 0;
      groups.set(key, group);
    }
  }
  const signal = [...groups.values()].filter((group) => group.successes > 0 && group.successes < group.size);
  return { signal: signal.length, groups: groups.size, rollouts };
}
const grpo = await grpoSignal();
const perRollout = (count, total) => (total === 0 ? "n/a" : (count / total).toFixed(4));
process.stdout.write(
  `\nprice: rescue saved ${savedTotal} groups in ${spent} rollouts (${perRollout(savedTotal, spent)} a rollout)` +
    (grpo === null
      ? "; no GRPO runs to compare\n"
      : `; GRPO's groups had a signal ${grpo.signal} of ${grpo.groups} times in ${grpo.rollouts} rollouts (${perRollout(grpo.signal, grpo.rollouts)} a rollout)\n`),
);
