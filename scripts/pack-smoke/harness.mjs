import { createHarnessConfig, harnessHash, parseHarnessConfig, runEpisode } from "@hs/harness";
import { assertBenchmarkConformance, checkBenchmarkConformance } from "@hs/harness/conformance";
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

// The conformance kit from the installed package, as a plugin author's test imports it: it passes the
// lookup benchmark and fails one whose instructions carry the answers.
const capitals = { france: "Paris", peru: "Lima", japan: "Tokyo", kenya: "Nairobi" };
const goldOf = (entry) => [capitals[String(entry.metadata.key)] ?? ""];
const report = await assertBenchmarkConformance({ createBenchmark: createLookupBenchmark, goldOf });
const leaky = async () => {
  const lookup = createLookupBenchmark();
  const loadTasks = async (options) => {
    const loaded = await lookup.loadTasks(options);
    const tasks = loaded.tasks.map((entry) => ({
      ...entry,
      instruction: `${entry.instruction} (${goldOf(entry)[0]})`,
    }));
    return { ...loaded, tasks };
  };
  return { ...lookup, loadTasks };
};
const refused = await checkBenchmarkConformance({ createBenchmark: leaky, goldOf });
if (refused.passed) throw new Error("the conformance kit passed a benchmark whose tasks hold their answers");
console.log(
  `harness ${harnessHash(config).slice(0, 12)}; lookup episode solved in ${trajectory.steps.length} steps; @hs/harness/conformance: ${report.checks.length} checks passed, a leaking benchmark refused`,
);
