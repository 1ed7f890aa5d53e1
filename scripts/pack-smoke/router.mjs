import { createRuleClassifier, labelTrajectory } from "@hs/failure-analysis";
import { observedTask, observedTrajectory, runEpisode } from "@hs/harness";
import {
  createLookupBenchmark,
  createLookupSensitivePolicy,
  lookupPool,
} from "@hs/harness/test-environments";
import { poolHarnesses, profilePool } from "@hs/profiles";
import {
  createCombinedRouter,
  createProfileRouter,
  createVotingRouter,
  defaultProfileJudges,
  explainDecision,
} from "@hs/router";

// Profiles the lookup pool, takes a base failure, routes it with the profile router combined with a
// Borda vote of the profile judges, and rolls the chosen sibling out on the same task.
const benchmark = createLookupBenchmark();
const { tasks } = await benchmark.loadTasks({});
const policy = createLookupSensitivePolicy();
const { profiles, baseTrajectories } = await profilePool({
  benchmark,
  policy,
  pool: lookupPool,
  tasks,
  rolloutsPerTask: 1,
});
const failed = baseTrajectories.find((trajectory) => !trajectory.success);
if (failed === undefined) throw new Error("the base harness failed no task");
const task = tasks.find((candidate) => candidate.id === failed.taskId);
const labelled = await labelTrajectory(observedTrajectory(benchmark, failed, task), [createRuleClassifier()]);
const router = createCombinedRouter({
  parts: [
    { router: createProfileRouter(), weight: 2 },
    { router: createVotingRouter({ judges: defaultProfileJudges() }) },
  ],
});
const input = {
  task: observedTask(benchmark, task),
  failedGroup: [labelled],
  pool: lookupPool,
  profiles,
  k: 1,
  seed: 1,
};
const decision = await router.route(input);
const harnesses = poolHarnesses(lookupPool);
const chosen = harnesses.find((harness) => harness.id === decision.selected[0]);
if (decision.selected.length !== 1 || chosen === undefined || chosen.isBase)
  throw new Error(`router selected ${JSON.stringify(decision.selected)}`);
if (explainDecision(decision).length === 0) throw new Error("empty explanation");
const rescue = await runEpisode({ task, benchmark, harness: chosen.config, policy, seed: 0 });
if (!rescue.success)
  throw new Error(`${chosen.id} did not rescue ${task.id}, though its profile says it rescues`);
console.log(
  `router: base failure on ${task.id} (${labelled.failureModes.map((label) => label.mode).join(", ")}) routed to ${chosen.id}, which solved it`,
);
