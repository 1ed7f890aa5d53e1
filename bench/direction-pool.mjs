// A hand-built pool for experiments where evolution finds no sibling: one sibling per direction, each
// made by one built-in operator of that direction applied to the DBBench v0.2 base harness. The
// siblings are NOT validated (their validation statistics are zero); the pool says so in its ids.
// Usage: pnpm build && node bench/direction-pool.mjs --out runs/experiment-direction-pool/pool.json
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { createDbBench } from "../packages/benchmarks-dbbench/dist/index.js";
import {
  applyOperator,
  builtinOperators,
  createRandom,
  dbbenchLibrary,
  writePool,
} from "../packages/evolution/dist/index.js";
import { createPool, createSibling } from "../packages/harness/dist/index.js";

const { values } = parseArgs({
  options: { out: { type: "string" }, seed: { type: "string", default: "0" } },
});
if (values.out === undefined) throw new Error("--out FILE is required");
const base = createDbBench().presets["v0.2"];
const chosen = [
  ["guidance", "add-hint"],
  ["context", "widen-observations"],
  ["error-recovery", "empty-result-note"],
  ["budget", "more-steps"],
  ["verification", "enable-check"],
];
const random = createRandom(Number(values.seed));
const siblings = chosen.map(([direction, name]) => {
  const operator = builtinOperators.find((entry) => entry.direction === direction && entry.name === name);
  if (operator === undefined) throw new Error(`no operator ${direction}/${name}`);
  const changed = applyOperator(operator, base, {
    random,
    library: dbbenchLibrary,
    toolNames: ["execute_sql", "commit_final_answer"],
  });
  if (changed === null) throw new Error(`operator ${name} does not apply to the base harness`);
  const id = `unvalidated-${direction}`;
  const config = { ...changed, id, description: `${direction}: ${name} (hand-built, not validated)` };
  return createSibling(config, {
    direction,
    lineage: [base.id],
    validation: { failuresTried: 0, rescued: 0, successesTried: 0, regressions: 0 },
  });
});
await mkdir(dirname(values.out), { recursive: true });
await writePool(
  values.out,
  createPool({
    benchmark: "dbbench",
    createdAt: new Date().toISOString(),
    policyVersion: "embedded@seed0-u0",
    base,
    siblings,
  }),
);
console.log(
  `wrote ${values.out}: ${siblings.map((sibling) => `${sibling.id} (${sibling.config.description})`).join("; ")}`,
);
