// Does GRPO on standard-a learn something that holds on held-out tasks? Takes a hand-written rule out of
// the grammar's prior (the linear weights of the named features start at 0; the features stay), writes
// that untrained policy per seed, trains it with `hs train --init` and evaluates every policy with
// `hs eval` on dev and standard-a. Prints one table: the full prior, the prior without the rule, and
// each trained seed. The commands it runs are printed on stderr (their logs go to --out), so every figure
// can be reproduced alone.
// `--prior full` starts from the previous version's prior (this one plus the alignment weights).
// Usage: pnpm build && node bench/prior-ablation.mjs --drop column-role-fit,value-role-fit
//          [--prior default|full] [--seeds 1,2,3] [--budget 16384] [--kl X] [--parallel 2]
//          [--out runs/prior-ablation]
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { runCliJobs } from "../apps/trainer/dist/run-jobs.js";
import {
  alignmentWeights,
  createDbBenchGrammar,
  priorVector,
  priorWeights,
} from "../packages/grammar-dbbench/dist/index.js";
import { createEmbeddedPolicy } from "../packages/policy-embedded/dist/index.js";
import { spread } from "../packages/report/dist/index.js";

const { values } = parseArgs({
  options: {
    drop: { type: "string" },
    seeds: { type: "string", default: "1,2,3" },
    budget: { type: "string", default: "16384" },
    prior: { type: "string", default: "default" },
    kl: { type: "string" },
    parallel: { type: "string", default: "2" },
    out: { type: "string", default: "runs/prior-ablation" },
  },
});
if (values.drop === undefined) {
  console.error("usage: node bench/prior-ablation.mjs --drop FEATURE[,FEATURE...] [--seeds 1,2,3]");
  process.exit(2);
}
if (values.prior !== "default" && values.prior !== "full") {
  console.error(`--prior expects default or full, got "${values.prior}"`);
  process.exit(2);
}
const grammar = createDbBenchGrammar();
if (values.prior === "full") grammar.prior = priorVector({ ...priorWeights, ...alignmentWeights });
const dropped = values.drop.split(",");
for (const name of dropped) {
  if (!grammar.featureNames.includes(name)) {
    console.error(`--drop: no feature "${name}"; features: ${grammar.featureNames.join(", ")}`);
    process.exit(2);
  }
}
const seeds = values.seeds.split(",").map(Number);
const out = resolve(values.out);
const workers = Number(values.parallel);
const report = ({ job, seconds }) =>
  console.error(`$ node apps/trainer/dist/cli.js ${job.args.join(" ")}  (${seconds.toFixed(0)} s)`);

/** The untrained policy of a seed with the dropped features' prior weights at 0. */
async function writeInitial(seed, drop = dropped, name = `initial-s${seed}`) {
  const policy = await createEmbeddedPolicy({ grammar, seed });
  const parameters = policy.network.read();
  const linear = parameters["linear.kernel"];
  linear.values = linear.values.map((weight, index) =>
    drop.includes(grammar.featureNames[index]) ? 0 : weight,
  );
  policy.network.write(parameters);
  policy.origin = `seed${seed}-${values.prior}-prior${drop.length > 0 ? `-without-${drop.join("+")}` : ""}`;
  const directory = join(out, name);
  await policy.save(directory);
  policy.dispose();
  return directory;
}

await mkdir(out, { recursive: true });
const started = Date.now();
const initials = [];
for (const seed of seeds) initials.push(await writeInitial(seed));
const untrained = await writeInitial(seeds[0], [], "untrained");
const training = await runCliJobs(
  seeds.map((seed, index) => ({
    name: `grpo-s${seed}`,
    args: [
      "train",
      "--bench",
      "dbbench",
      "--method",
      "grpo",
      "--seed",
      String(seed),
      "--budget",
      values.budget,
      ...(values.kl === undefined ? [] : ["--kl", values.kl]),
      "--init",
      initials[index],
      "--out",
      join(out, `grpo-s${seed}`),
    ],
    log: join(out, `grpo-s${seed}.log`),
  })),
  workers,
  report,
);
const policies = [
  { name: `untrained, ${values.prior} prior`, spec: `embedded:${untrained}` },
  { name: "untrained, rule removed", spec: `embedded:${initials[0]}` },
  ...seeds.map((seed, index) => ({
    name: `GRPO seed ${seed} (${(training[index].seconds / 60).toFixed(1)} min)`,
    spec: `embedded:${join(out, `grpo-s${seed}`)}`,
  })),
];
const splits = ["dev", "standard-a"];
const evaluations = await runCliJobs(
  policies.flatMap((policy, index) =>
    splits.map((split) => ({
      name: `eval-${index}-${split}`,
      args: ["eval", "--bench", "dbbench", "--split", split, "--policy", policy.spec, "--json"],
      log: join(out, `eval-${index}-${split}.log`),
    })),
  ),
  workers,
  report,
);
const rows = policies.map((policy, index) => ({
  name: policy.name,
  result: Object.fromEntries(
    splits.map((split, splitIndex) => [
      split,
      JSON.parse(evaluations[index * splits.length + splitIndex].stdout),
    ]),
  ),
}));
const trained = rows.slice(2);

const percent = (value) => `${(value * 100).toFixed(1)}%`;
console.log(
  `${values.prior} prior without ${dropped.join(", ")}; GRPO ${values.budget} rollouts on standard-a, KL ${values.kl ?? "default"}`,
);
console.log(
  "| policy | dev overall_cat_accuracy (passes) | dev SELECT / INSERT / UPDATE | standard-a (passes) |",
);
console.log("|---|---|---|---|");
for (const { name, result } of rows) {
  const dev = result.dev;
  const standard = result["standard-a"];
  console.log(
    `| ${name} | ${percent(dev.overall_cat_accuracy)} (${dev.passes}) | ${percent(dev.metrics.SELECT_accuracy)} / ${percent(dev.metrics.INSERT_accuracy)} / ${percent(dev.metrics.UPDATE_accuracy)} | ${percent(standard.overall_cat_accuracy)} (${standard.passes}) |`,
  );
}
const gains = trained.map(
  ({ result }) => result.dev.overall_cat_accuracy - rows[1].result.dev.overall_cat_accuracy,
);
const { mean, std } = spread(gains);
console.log(
  `dev gain over the untrained policy without the rule: ${gains.map((gain) => `${(gain * 100).toFixed(1)}`).join(", ")} points (mean ${(mean * 100).toFixed(1)}, sd ${(std * 100).toFixed(1)}); ${((Date.now() - started) / 60000).toFixed(1)} min in all`,
);
