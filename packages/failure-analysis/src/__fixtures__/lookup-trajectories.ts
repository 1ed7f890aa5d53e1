import { createHarnessConfig, type HarnessConfig, runEpisode, type Trajectory } from "@hs/harness";
import {
  createLookupBenchmark,
  createScriptedPolicy,
  lookupTextHarness,
} from "@hs/harness/test-environments";

/** Runs one lookup episode (task index 1 asks for Peru's capital, Lima) with scripted replies. */
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

/** The lookup base harness with short observations (for context-loss cases). */
export const shortContextHarness: HarnessConfig = createHarnessConfig({
  ...lookupTextHarness,
  context: { ...lookupTextHarness.context, truncateObservationChars: 12 },
});
