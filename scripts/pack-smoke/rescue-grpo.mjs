import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createLookupBenchmark,
  createLookupSensitivePolicy,
  createRecordingLearner,
  lookupPool,
  lookupTextHarness,
} from "@hs/harness/test-environments";
import { createRescuer, defaultTrainerConfig, groupAdvantages, trainGrpo } from "@hs/rescue-grpo";

// GRPO advantages of one group, then the trainer loop on the lookup benchmark with the rescue step
// over every sibling of the lookup pool (the all-rescue baseline) and a recording learner.
const advantages = groupAdvantages([1, 0, 0, 1], "grpo");
const sum = advantages.reduce((total, value) => total + value, 0);
if (Math.abs(sum) > 1e-9 || !(advantages[0] > 0 && advantages[1] < 0))
  throw new Error(`advantages ${advantages}`);
const outDirectory = await mkdtemp(join(tmpdir(), "hs-smoke-rescue-grpo-"));
try {
  const benchmark = createLookupBenchmark();
  const { tasks } = await benchmark.loadTasks({});
  const policy = createLookupSensitivePolicy();
  const learner = createRecordingLearner();
  const rescue = createRescuer({
    benchmark,
    pool: lookupPool,
    policy,
    selection: "all",
    k: 2,
    rescueBudget: 4,
    keepBaseNegative: true,
    seed: 4,
    profiles: () => null,
  });
  const steps = [];
  const config = {
    ...defaultTrainerConfig("all-rescue", 4),
    groupSize: 2,
    promptsPerStep: 2,
    rolloutBudget: 24,
  };
  const context = { benchmark, harness: lookupTextHarness, tasks, policy, learner, outDirectory, rescue };
  const summary = await trainGrpo({ ...context, onStep: (step) => steps.push(step) }, config);
  const rescueRollouts = steps.reduce((total, step) => total + step.rolloutsRescue, 0);
  if (summary.rollouts > 24 || steps.length !== summary.steps)
    throw new Error(`summary ${JSON.stringify(summary)}`);
  if (rescueRollouts === 0) throw new Error("no rescue rollout ran");
  const trained = learner.batches.flatMap((batch) => batch.samples);
  if (!trained.some((sample) => sample.advantage !== 0)) throw new Error("every trained advantage is 0");
  console.log(
    `rescue-grpo: advantages [${advantages.map((value) => value.toFixed(2))}]; all-rescue run ${summary.steps} steps, ${summary.rollouts} rollouts (${rescueRollouts} rescue), ${trained.length} samples trained`,
  );
} finally {
  await rm(outDirectory, { recursive: true, force: true });
}
