import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createLookupBenchmark,
  createLookupSensitivePolicy,
  lookupPool,
} from "@hs/harness/test-environments";
import { poolHarnesses, profilePool, readProfileSet, writeProfileSet } from "@hs/profiles";

// Profiles the lookup test pool for a policy that reacts to the harness, writes the profile file and
// reads it back.
const benchmark = createLookupBenchmark();
const { tasks } = await benchmark.loadTasks({});
const { profiles, baseTrajectories } = await profilePool({
  benchmark,
  policy: createLookupSensitivePolicy(),
  pool: lookupPool,
  tasks,
  rolloutsPerTask: 1,
});
const ids = poolHarnesses(lookupPool).map((harness) => harness.id);
for (const id of ids) if (profiles.profiles[id] === undefined) throw new Error(`no profile for ${id}`);
const base = poolHarnesses(lookupPool).find((harness) => harness.isBase).id;
const failures = baseTrajectories.filter((trajectory) => !trajectory.success).length;
if (failures === 0) throw new Error("the base harness failed no lookup task");
const rescuing = ids.filter((id) =>
  Object.values(profiles.profiles[id].rescueByMode).some((cell) => cell.rescued > 0),
);
if (rescuing.length === 0) throw new Error("no sibling rescued a base failure");
const directory = await mkdtemp(join(tmpdir(), "hs-smoke-profiles-"));
try {
  const file = join(directory, "profiles.json");
  await writeProfileSet(file, profiles);
  const read = await readProfileSet(file);
  if (JSON.stringify(read) !== JSON.stringify(profiles)) throw new Error("profile file did not round-trip");
} finally {
  await rm(directory, { recursive: true, force: true });
}
console.log(
  `profiles: ${ids.length} harnesses profiled; base ${base} failed ${failures}/${baseTrajectories.length}; rescuing: ${rescuing.join(", ")}`,
);
