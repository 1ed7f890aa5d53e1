import { episodeSeed, runJobs } from "@hs/failure-analysis";
import type { EpisodeExecutor } from "@hs/harness";
import { createLookupBenchmark, createLookupGrammar, lookupPool } from "@hs/harness/test-environments";
import { createEmbeddedPolicy } from "@hs/policy-embedded";
import type { Trajectory } from "@hs/spec";

/** Episodes of the lookup benchmark (every pool harness, `rollouts` seeds per task), through `executor` or in process. */
export async function lookupWorkload(rollouts: number, executor?: EpisodeExecutor): Promise<Trajectory[]> {
  const benchmark = createLookupBenchmark();
  const { tasks } = await benchmark.loadTasks({});
  const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed: 5 });
  const harnesses = [lookupPool.base.config, ...lookupPool.siblings.map((sibling) => sibling.config)];
  const jobs = harnesses.flatMap((harness) =>
    tasks.flatMap((task) =>
      Array.from({ length: rollouts }, (_, rollout) => ({
        task,
        harness,
        seed: episodeSeed(task.id, rollout, 5),
      })),
    ),
  );
  const trajectories = await runJobs(
    { benchmark, policy, ...(executor === undefined ? {} : { executor }) },
    jobs,
  );
  policy.dispose();
  return trajectories;
}

/** Trajectories without their wall-clock fields, as JSON, for comparing two runs. */
export function comparable(trajectories: readonly Trajectory[]): string[] {
  return trajectories.map((trajectory) =>
    JSON.stringify({
      ...trajectory,
      timings: undefined,
      steps: trajectory.steps.map((step) => ({ ...step, policyMs: undefined, environmentMs: undefined })),
    }),
  );
}
