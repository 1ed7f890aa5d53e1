// How often the behaviour each kept DBBench sibling induces shows up under the base harness on held-out
// dev tasks: for the untrained policy, after GRPO and after Harness-S, every seed of one `hs quickstart`
// experiment. Each policy is evaluated greedily under the base harness (`hs eval --trajectories`), and
// its trajectories are searched for the behaviour, read from the policy's own SQL only:
// - read-back (the verification sibling's check): a SELECT after an executed UPDATE, INSERT or DELETE,
//   before the answer;
// - values-first (the context sibling's prelude of each column's values, the guidance sibling's hint to
//   preview distinct values): a SELECT DISTINCT before the first statement with a WHERE;
// - look-after-empty (a hint or note to look at the rows after []): after a SELECT with a WHERE
//   returned [], the next statement is a SELECT without a WHERE.
// The share is over the episodes the behaviour can apply to (tasks that changed rows; episodes with a
// WHERE; episodes with an empty filtered result), so a change in what the policy attempts does not pass
// for a change in the behaviour. Each kept sibling of DIR/pool.json is listed with the behaviours its
// harness induces (read from its config's texts and harness-made calls). The figures are also written
// to DIR/behaviour-frequency.json (or --out), which bench/experiment-properties.mjs prints.
//
//   node bench/behaviour-frequency.mjs runs/exp-dbbench [--methods grpo,harness-s] [--cli apps/trainer/dist/cli.js] [--out FILE] [--seeds 1,2,3]
//
// Seeds come from DIR/results.json unless --seeds names them (to measure finished runs while others
// train); rows already in the output file for the same split and policy are kept.
//
// Use the `hs` build the experiment was trained with (weights of one grammar version load only in it).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
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
    out: { type: "string" },
    seeds: { type: "string" },
  },
});
const experiment = positionals[0];
if (experiment === undefined) {
  process.stderr.write(
    "usage: node bench/behaviour-frequency.mjs EXPERIMENT_DIR [--methods LIST] [--cli PATH]\n",
  );
  process.exit(2);
}
const seeds =
  values.seeds === undefined
    ? JSON.parse(await readFile(join(experiment, "results.json"), "utf8")).seeds
    : values.seeds.split(",").map(Number);
const out = values.out ?? join(experiment, "behaviour-frequency.json");

const sqlOf = (step) => /```sql\s*([\s\S]*?)```/.exec(step.action?.content ?? "")?.[1]?.trim() ?? null;
const replyOf = (step) => step.executed?.[0]?.result?.content ?? "";
const hasWhere = (sql) => /\bWHERE\b/i.test(sql);
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
  "look-after-empty": (queries, replies) => {
    const empty = queries.findIndex(
      (sql, index) => /^\s*SELECT\b/i.test(sql) && hasWhere(sql) && /^\s*\[\s*\]\s*$/.test(replies[index]),
    );
    if (empty < 0) return null;
    const next = queries[empty + 1];
    return next !== undefined && /^\s*SELECT\b/i.test(next) && !hasWhere(next);
  },
};

/** The behaviours a sibling's harness induces, read from its config (texts and harness-made calls). */
function behavioursOf(sibling) {
  const text = JSON.stringify(sibling.config).toLowerCase();
  const found = [];
  if (/select the rows your change|read[- ]?back|changecheck/.test(text)) found.push("read-back");
  if (/distinct values|"prelude":\{/.test(text)) found.push("values-first");
  if (/look at the (rows|values)|written differently/.test(text)) found.push("look-after-empty");
  if (found.length > 0) return found;
  return sibling.direction === "verification" ? ["read-back"] : ["values-first"];
}
const poolFile = join(experiment, "pool.json");
const siblings = existsSync(poolFile)
  ? JSON.parse(await readFile(poolFile, "utf8")).siblings.map((sibling) => ({
      id: sibling.id,
      direction: sibling.direction,
      behaviours: behavioursOf(sibling),
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
          .map((trajectory) => {
            const steps = trajectory.steps.filter((step) => sqlOf(step) !== null);
            return detect(steps.map(sqlOf), steps.map(replyOf));
          })
          .filter((verdict) => verdict !== null);
        return [name, { shown: verdicts.filter(Boolean).length, applicable: verdicts.length }];
      }),
    );
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

// rows an earlier run wrote to the same file for the same split are kept (delete it to measure again)
const earlier = existsSync(out) ? JSON.parse(await readFile(out, "utf8")) : null;
const keptRows = earlier?.split === values.split ? earlier.rows : [];
const rows = [];
async function measure(policy, seed, policyArgs) {
  const kept = keptRows.find(
    (row) =>
      row.policy === policy && row.seed === seed && Object.keys(behaviours).every((name) => name in row),
  );
  rows.push(kept ?? { policy, seed, ...(await frequencies(policyArgs)) });
  process.stderr.write(`${policy} seed ${seed} ${kept === undefined ? "done" : "kept"}\n`);
}
for (const seed of seeds) await measure("untrained", seed, ["--policy", "embedded", "--seed", String(seed)]);
for (const method of values.methods.split(",").filter(Boolean))
  for (const seed of seeds)
    await measure(method, seed, ["--policy", `embedded:${join(experiment, "runs", method, `seed-${seed}`)}`]);
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
const totals = {};
for (const policy of ["untrained", ...values.methods.split(",").filter(Boolean)]) {
  const mine = rows.filter((row) => row.policy === policy);
  totals[policy] = Object.fromEntries(
    Object.keys(behaviours).map((name) => [
      name,
      {
        shown: mine.reduce((sum, row) => sum + row[name].shown, 0),
        applicable: mine.reduce((sum, row) => sum + row[name].applicable, 0),
      },
    ]),
  );
  const line = Object.entries(totals[policy]).map(
    ([name, { shown, applicable }]) =>
      `${name} ${shown}/${applicable} (${((100 * shown) / Math.max(1, applicable)).toFixed(1)}%)`,
  );
  console.log(`${policy}, all seeds: ${line.join("; ")}`);
}
for (const sibling of siblings)
  console.log(`${sibling.id} (${sibling.direction}) induces: ${sibling.behaviours.join(", ")}`);
await writeFile(
  out,
  `${JSON.stringify({ split: values.split, harness: "base", siblings, rows, totals }, null, 2)}\n`,
);
process.stderr.write(`wrote ${out}\n`);
