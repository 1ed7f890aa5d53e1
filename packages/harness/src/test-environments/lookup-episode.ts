import type { HarnessConfig, Trajectory } from "@hs/spec";
import { runEpisode } from "../runtime/run-episode.js";
import { createLookupBenchmark, lookupTextHarness } from "./lookup-benchmark.js";
import { createScriptedPolicy } from "./scripted-policy.js";

/** Test equipment: one lookup episode (task index 1 asks for Peru's capital, Lima) with scripted replies. */
export async function lookupEpisode(
  replies: string[],
  harness: HarnessConfig = lookupTextHarness,
  taskIndex = 1,
): Promise<Trajectory> {
  const benchmark = createLookupBenchmark();
  const { tasks } = await benchmark.loadTasks({});
  const task = tasks[taskIndex];
  if (task === undefined) throw new Error("lookup task missing");
  return runEpisode({ task, benchmark, harness, policy: createScriptedPolicy(replies), seed: 1 });
}
