import { createHarnessConfig, harnessHash, parseHarnessConfig, runEpisode } from "@hs/harness";
import {
  createLookupBenchmark,
  createScriptedPolicy,
  lookupTextHarness,
} from "@hs/harness/test-environments";

const config = parseHarnessConfig(createHarnessConfig({ id: "smoke" }));
const benchmark = createLookupBenchmark();
const [task] = (await benchmark.loadTasks({ split: "train" })).tasks;
const policy = createScriptedPolicy(["lookup: france", "answer: Paris"]);
const trajectory = await runEpisode({ task, benchmark, harness: lookupTextHarness, policy, seed: 0 });
if (!trajectory.success) throw new Error(`episode failed: ${trajectory.endReason}`);
console.log(
  `harness ${harnessHash(config).slice(0, 12)}; lookup episode solved in ${trajectory.steps.length} steps`,
);
