import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { changedSections, evolvePool, readPool, writePool } from "@hs/evolution";
import {
  createLookupBenchmark,
  createLookupSensitivePolicy,
  lookupTextHarness,
} from "@hs/harness/test-environments";

// Evolves a sibling pool from the lookup base harness for a policy that reacts to the harness, then
// writes the pool file and reads it back.
const benchmark = createLookupBenchmark();
const { tasks } = await benchmark.loadTasks({});
const { pool, report } = await evolvePool({
  benchmark,
  policy: createLookupSensitivePolicy(),
  tasks,
  base: lookupTextHarness,
  // four rollouts a task: a sibling must rescue at least 3 failures and beat the re-roll by a sign test
  rolloutsPerTask: 4,
  generations: 3,
  candidatesPerGeneration: 3,
  seed: 3,
});
if (report.baseRun.failures === 0) throw new Error("the base run failed nothing");
if (pool.siblings.length === 0) throw new Error("evolution accepted no sibling");
for (const sibling of pool.siblings) {
  if (!(sibling.validation.rescued > sibling.validation.regressions))
    throw new Error(`${sibling.id} joined without a positive score`);
  if (!(sibling.validation.control?.pValue < 0.1))
    throw new Error(`${sibling.id} joined without beating the re-roll control`);
  if (changedSections(pool.base.config, sibling.config).length !== 1)
    throw new Error(`${sibling.id} changed more than one section`);
}
const directory = await mkdtemp(join(tmpdir(), "hs-smoke-evolution-"));
try {
  await writePool(join(directory, "pool.json"), pool);
  const read = await readPool(join(directory, "pool.json"));
  if (JSON.stringify(read) !== JSON.stringify(pool)) throw new Error("pool file did not round-trip");
} finally {
  await rm(directory, { recursive: true, force: true });
}
const summary = pool.siblings.map(
  (sibling) => `${sibling.direction} ${sibling.validation.rescued}/${sibling.validation.regressions}`,
);
console.log(
  `evolution: base failed ${report.baseRun.failures}/${report.baseRun.episodes}; pool of ${pool.siblings.length} siblings (direction rescued/regressions: ${summary.join(", ")})`,
);
