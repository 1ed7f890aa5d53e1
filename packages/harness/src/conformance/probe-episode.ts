import type { BenchmarkV1, HarnessConfig, PolicyV1, PolicyView, Task, Trajectory } from "@hs/spec";
import { runEpisode } from "../runtime/run-episode.js";

/**
 * Runs one episode with a policy that writes nothing parsable, and returns every view it was shown: the
 * first view and each re-prompt, exactly as a policy would receive them.
 */
export async function probeEpisode(
  benchmark: BenchmarkV1,
  task: Task,
  harness: HarnessConfig,
): Promise<{ views: PolicyView[]; trajectory: Trajectory }> {
  const views: PolicyView[] = [];
  const policy: PolicyV1 = {
    specificationVersion: "v1",
    id: "conformance-probe",
    version: "0",
    async act(view) {
      views.push(view);
      return { content: "", logprob: null };
    },
  };
  const trajectory = await runEpisode({ task, benchmark, harness, policy, seed: 0, mode: "greedy" });
  return { views, trajectory };
}
