// How often the behaviour each kept DBBench sibling induces shows up under the base harness on held-out
// dev tasks: for the untrained policy, after GRPO and after Harness-S, every seed of one `hs quickstart`
// experiment. Each policy is evaluated greedily under the base harness (`hs eval --trajectories`), and
// its trajectories are searched for the behaviour, read from the policy's own SQL only:
// - read-back (the verification sibling's check): a SELECT after an executed UPDATE, INSERT or DELETE,
//   before the answer;
// - values-first (the context sibling's prelude of each column's values): a SELECT DISTINCT before the
//   first statement with a WHERE.
// The share is over the episodes the behaviour can apply to (tasks that changed rows; episodes with a
// WHERE), so a change in what the policy attempts does not pass for a change in the behaviour.
//
//   node bench/behaviour-frequency.mjs runs/exp-dbbench [--methods grpo,harness-s] [--cli apps/trainer/dist/cli.js]
//
// Use the `hs` build the experiment was trained with (weights of one grammar version load only in it).
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs, promisify } from "node:util";

const run = promisify(execFile);
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    methods: { type: "string", default: "grpo,harness-s" },
    cli: { type: "string", default: "apps/trainer/dist/cli.js" },
    split: { type: "string", default: "dev" },
  },
});
const experiment = positionals[0];
if (experiment === undefined) {
  process.stderr.write(
    "usage: node bench/behaviour-frequency.mjs EXPERIMENT_DIR [--methods LIST] [--cli PATH]\n",
  );
  process.exit(2);
}
const results = JSON.parse(await readFile(join(experiment, "results.json"), "utf8"));
const seeds = results.seeds;

const sqlOf = (step) => /```sql\s*([\s\S]*?)```/.exec(step.action?.content ?? "")?.[1]?.trim() ?? null;
const changes = (sql) => /^\s*(UPDATE|INSERT|DELETE)\b/i.test(sql);
const behaviours = {
  "read-back": (queries) => {
    const change = queries.findIndex(changes);
    if (change < 0) return null;
    return queries.slice(change + 1).some((sql) => /^\s*SELECT\b/i.test(sql));
  },
  "values-first": (queries) => {
    const filtered = queries.findIndex((sql) => /\bWHERE\b/i.test(sql));
    if (filtered < 0) return null;
    return queries.slice(0, filtered).some((sql) => /^\s*SELECT\s+DISTINCT\b/i.test(sql));
  },
};

async function frequencies(policyArgs) {
  const directory = await mkdtemp(join(tmpdir(), "hs-behaviour-"));
  try {
    const file = join(directory, "trajectories.jsonl");
    await run(
      process.execPath,
      [
        values.cli,
        "eval",
        "--bench",
        "dbbench",
        "--split",
        values.split,
        "--harness",
        "base",
        ...policyArgs,
        "--trajectories",
        file,
        "--json",
      ],
      { maxBuffer: 1 << 26 },
    );
    const trajectories = (await readFile(file, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    return Object.fromEntries(
      Object.entries(behaviours).map(([name, detect]) => {
        const verdicts = trajectories
          .map((trajectory) => detect(trajectory.steps.map(sqlOf).filter((sql) => sql !== null)))
          .filter((verdict) => verdict !== null);
        return [name, { shown: verdicts.filter(Boolean).length, applicable: verdicts.length }];
      }),
    );
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

const rows = [];
for (const seed of seeds)
  rows.push({
    policy: "untrained",
    seed,
    ...(await frequencies(["--policy", "embedded", "--seed", String(seed)])),
  });
for (const method of values.methods.split(",")) {
  for (const seed of seeds) {
    const policy = `embedded:${join(experiment, "runs", method, `seed-${seed}`)}`;
    rows.push({ policy: method, seed, ...(await frequencies(["--policy", policy])) });
    process.stderr.write(`${method} seed ${seed} done\n`);
  }
}
const cell = ({ shown, applicable }) => `${shown}/${applicable}`;
console.log(`| policy | seed | ${Object.keys(behaviours).join(" | ")} |`);
console.log(
  `| --- | --- | ${Object.keys(behaviours)
    .map(() => "---")
    .join(" | ")} |`,
);
for (const row of rows)
  console.log(
    `| ${row.policy} | ${row.seed} | ${Object.keys(behaviours)
      .map((name) => cell(row[name]))
      .join(" | ")} |`,
  );
for (const policy of ["untrained", ...values.methods.split(",")]) {
  const mine = rows.filter((row) => row.policy === policy);
  const totals = Object.keys(behaviours).map((name) => {
    const shown = mine.reduce((sum, row) => sum + row[name].shown, 0);
    const applicable = mine.reduce((sum, row) => sum + row[name].applicable, 0);
    return `${name} ${shown}/${applicable} (${((100 * shown) / Math.max(1, applicable)).toFixed(1)}%)`;
  });
  console.log(`${policy}, all seeds: ${totals.join("; ")}`);
}
