import { runEpisode } from "@hs/harness";
import { createLookupBenchmark, createLookupGrammar, lookupTextHarness } from "@hs/harness/test-environments";
import { EmbeddedGrpoLearner } from "@hs/learner-embedded";
import { createEmbeddedPolicy } from "@hs/policy-embedded";

// Eight rollouts of the embedded policy on the lookup benchmark, then one GRPO update on them.
const benchmark = createLookupBenchmark();
const { tasks } = await benchmark.loadTasks({});
const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed: 2 });
const trajectories = [];
for (let seed = 0; seed < 8; seed++) {
  const task = tasks[seed % tasks.length];
  trajectories.push(await runEpisode({ task, benchmark, harness: lookupTextHarness, policy, seed }));
}
const batch = {
  samples: trajectories.map((trajectory, index) => ({
    trajectoryId: trajectory.id,
    harnessId: trajectory.harnessId,
    steps: trajectory.steps.map((step) => ({ view: step.view, action: step.action })),
    advantage: trajectory.success ? 1 : index % 2 === 0 ? -1 : 0.5,
  })),
};
const learner = new EmbeddedGrpoLearner({ policy, learningRate: 0.2, epochs: 3 });
const before = learner.statistics(learner.replay(batch));
if (before.ratioMaxDeviation !== 0)
  throw new Error(`ratio before the update deviates by ${before.ratioMaxDeviation}`);
const stats = await learner.update(batch);
const after = learner.statistics(learner.replay(batch));
if (learner.updates !== 1) throw new Error(`updates = ${learner.updates}`);
if (!(after.ratioMaxDeviation > 0))
  throw new Error("the update did not change the policy's log-probabilities");
const decisions = learner.replay(batch).oldLogprobs.length;
learner.dispose();
policy.dispose();
console.log(
  `learner-embedded: one GRPO update over ${decisions} decisions of 8 lookup rollouts; max ratio deviation ${after.ratioMaxDeviation.toFixed(3)} (${Object.keys(stats).length} stats)`,
);
