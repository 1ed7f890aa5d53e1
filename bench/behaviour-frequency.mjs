// How often the behaviour each kept sibling induces shows up under the base harness on held-out tasks:
// for the untrained policy, after GRPO and after Harness-S, every seed of one `hs quickstart`
// experiment. Each policy is evaluated greedily under the base harness (`hs eval --trajectories`, one
// episode per task), and its trajectories are searched for the behaviours of the experiment's benchmark,
// read from the policy's own actions and the observations it saw only:
// - DBBench (bench/behaviours/dbbench-behaviours.mjs, held-out dev): read-back after a change,
//   values-first, look-after-empty;
// - AppWorld (bench/behaviours/appworld-behaviours.mjs, held-out test): login after an unauthorized
//   reply, the doc after a refused call, paging with the token alone after an empty filtered list,
//   listing the entities after a missing id, retrying after a loop ran for no item, the filter of the
//   last answer or loop keeping items before complete_task, one condition per field, paging with the
//   token alone;
// - SWE-Gym (bench/behaviours/swegym-behaviours.mjs, held-out heldout): the ranked trace run by the
//   policy, a trace before the first probe, the ranked trace after a fruitless probe.
// The share is over the episodes the behaviour can apply to, so a change in what the policy attempts
// does not pass for a change in the behaviour. Each kept sibling of DIR/pool.json is listed with the
// behaviours its harness induces (read from its config). The figures are also written to
// DIR/behaviour-frequency.json (or --out), which bench/experiment-properties.mjs prints.
//
//   node bench/behaviour-frequency.mjs runs/exp-dbbench [--methods grpo,harness-s] [--cli apps/trainer/dist/cli.js] [--out FILE] [--seeds 1,2,3] [--split NAME] [--bench NAME]
//     [--arm NAME=RUNS]   (runs trained outside the experiment, RUNS/seed-S, measured beside its methods)
//
// The benchmark and its options come from --bench, DIR/results.json or DIR/quickstart-inputs.json (while
// runs train); seeds come from DIR/results.json unless --seeds names them (to measure finished runs while
// others train); rows already in the output file for the same split and policy are kept.
//
// Use the `hs` build the experiment was trained with (weights of one grammar version load only in it).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs, promisify } from "node:util";
import { armsOf } from "./arm-option.mjs";
import { appworldBehaviours } from "./behaviours/appworld-behaviours.mjs";
import { dbbenchBehaviours } from "./behaviours/dbbench-behaviours.mjs";
import { swegymBehaviours } from "./behaviours/swegym-behaviours.mjs";

const run = promisify(execFile);
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    methods: { type: "string", default: "grpo,harness-s" },
    cli: { type: "string", default: "apps/trainer/dist/cli.js" },
    split: { type: "string" },
    out: { type: "string" },
    seeds: { type: "string" },
    arm: { type: "string", multiple: true, default: [] },
    bench: { type: "string" },
  },
});
const experiment = positionals[0];
if (experiment === undefined) {
  process.stderr.write(
    "usage: node bench/behaviour-frequency.mjs EXPERIMENT_DIR [--methods LIST] [--cli PATH]\n",
  );
  process.exit(2);
}
if (!existsSync(experiment)) {
  process.stderr.write(`${experiment}: no such experiment directory (expected the --out of hs quickstart)\n`);
  process.exit(2);
}
const readJson = async (name) => {
  const file = join(experiment, name);
  return existsSync(file) ? JSON.parse(await readFile(file, "utf8")) : null;
};
const results = await readJson("results.json");
const benchmarkArgs =
  (values.bench === undefined ? undefined : ["--bench", values.bench]) ??
  results?.settings?.benchmarkArgs ??
  (await readJson("quickstart-inputs.json"))?.settings?.["--bench (and its options)"]?.split(/\s+/);
if (benchmarkArgs === undefined) {
  process.stderr.write(
    `${experiment}: no results.json or quickstart-inputs.json names the benchmark: name it with --bench\n`,
  );
  process.exit(2);
}
const benchmark = benchmarkArgs[benchmarkArgs.indexOf("--bench") + 1];
const behaviourSets = { dbbench: dbbenchBehaviours, appworld: appworldBehaviours, swegym: swegymBehaviours };
const behaviourSet = behaviourSets[benchmark];
if (behaviourSet === undefined) {
  process.stderr.write(
    `${experiment}: benchmark ${benchmark} has no behaviour set (expected one of ${Object.keys(behaviourSets).join(", ")})\n`,
  );
  process.exit(2);
}
const split = values.split ?? behaviourSet.split;
if (values.seeds === undefined && results === null) {
  process.stderr.write(
    `${join(experiment, "results.json")} does not exist: name the finished seeds with --seeds\n`,
  );
  process.exit(2);
}
const seeds = values.seeds === undefined ? results.seeds : values.seeds.split(",").map(Number);
const out = values.out ?? join(experiment, "behaviour-frequency.json");
const arms = new Map(armsOf(values.arm).map(({ name, directory }) => [name, directory]));
const methods = [...values.methods.split(",").filter(Boolean), ...arms.keys()];
const runOf = (method, seed) => join(arms.get(method) ?? join(experiment, "runs", method), `seed-${seed}`);
const missing = methods.flatMap((method) =>
  seeds
    .map((seed) => runOf(method, seed))
    .filter((run) => !existsSync(join(run, "final", "policy.json")) && !existsSync(join(run, "policy.json"))),
);
if (missing.length > 0) {
  process.stderr.write(
    `no finished run (final/policy.json) in ${missing.join(", ")}: name the finished seeds with --seeds, the methods with --methods\n`,
  );
  process.exit(2);
}

const poolFile = join(experiment, "pool.json");
const siblings = existsSync(poolFile)
  ? JSON.parse(await readFile(poolFile, "utf8")).siblings.map((sibling) => ({
      id: sibling.id,
      direction: sibling.direction,
      behaviours: behaviourSet.behavioursOf(sibling),
    }))
  : [];

async function frequencies(policyArgs) {
  const directory = await mkdtemp(join(tmpdir(), "hs-behaviour-"));
  try {
    const file = join(directory, "trajectories.jsonl");
    await run(
      process.execPath,
      [
        values.cli,
        "eval",
        ...benchmarkArgs,
        "--split",
        split,
        "--harness",
        "base",
        ...policyArgs,
        "--trajectories",
        file,
        "--json",
      ],
      { maxBuffer: 1 << 26 },
    ).catch((error) => {
      const said = String(error.stderr ?? error.message)
        .trim()
        .split("\n")
        .slice(-3)
        .join("\n");
      process.stderr.write(`hs eval ${policyArgs.join(" ")} on ${split} failed:\n${said}\n`);
      process.exit(1);
    });
    const trajectories = (await readFile(file, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const verdicts = trajectories.map((trajectory) => behaviourSet.verdicts(trajectory));
    return Object.fromEntries(
      behaviourSet.names.map((name) => {
        const applicable = verdicts.map((verdict) => verdict[name]).filter((verdict) => verdict !== null);
        return [name, { shown: applicable.filter(Boolean).length, applicable: applicable.length }];
      }),
    );
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

// rows an earlier run wrote to the same file for the same split are kept (delete it to measure again)
const earlier = existsSync(out) ? JSON.parse(await readFile(out, "utf8")) : null;
const keptRows = earlier?.split === split ? earlier.rows : [];
const rows = [];
async function measure(policy, seed, policyArgs) {
  const kept = keptRows.find(
    (row) => row.policy === policy && row.seed === seed && behaviourSet.names.every((name) => name in row),
  );
  rows.push(kept ?? { policy, seed, ...(await frequencies(policyArgs)) });
  process.stderr.write(`${policy} seed ${seed} ${kept === undefined ? "done" : "kept"}\n`);
}
for (const seed of seeds) await measure("untrained", seed, ["--policy", "embedded", "--seed", String(seed)]);
for (const method of methods)
  for (const seed of seeds) await measure(method, seed, ["--policy", `embedded:${runOf(method, seed)}`]);
const cell = ({ shown, applicable }) => `${shown}/${applicable}`;
console.log(`| policy | seed | ${behaviourSet.names.join(" | ")} |`);
console.log(`| --- | --- | ${behaviourSet.names.map(() => "---").join(" | ")} |`);
for (const row of rows)
  console.log(
    `| ${row.policy} | ${row.seed} | ${behaviourSet.names.map((name) => cell(row[name])).join(" | ")} |`,
  );
const totals = {};
for (const policy of ["untrained", ...methods]) {
  const mine = rows.filter((row) => row.policy === policy);
  totals[policy] = Object.fromEntries(
    behaviourSet.names.map((name) => [
      name,
      {
        shown: mine.reduce((sum, row) => sum + row[name].shown, 0),
        applicable: mine.reduce((sum, row) => sum + row[name].applicable, 0),
      },
    ]),
  );
  const line = Object.entries(totals[policy]).map(
    ([name, { shown, applicable }]) =>
      `${name} ${shown}/${applicable} (${applicable === 0 ? "no occasion" : `${((100 * shown) / applicable).toFixed(1)}%`})`,
  );
  console.log(`${policy}, all seeds: ${line.join("; ")}`);
}
for (const sibling of siblings)
  console.log(
    `${sibling.id} (${sibling.direction}) induces: ${sibling.behaviours.join(", ") || "none of the behaviours measured"}`,
  );
await writeFile(
  out,
  `${JSON.stringify({ benchmark, split, harness: "base", siblings, rows, totals }, null, 2)}\n`,
);
process.stderr.write(`wrote ${out}\n`);
