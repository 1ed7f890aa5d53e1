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
import { trainMethod } from "@hs/harness-s";
import { defaultTrainerConfig } from "@hs/rescue-grpo";

const outDirectory = await mkdtemp(join(tmpdir(), "hs-smoke-harness-s-"));
try {
  const benchmark = createLookupBenchmark();
  const { tasks } = await benchmark.loadTasks({});
  const learner = createRecordingLearner();
  const steps = [];
  const config = {
    ...defaultTrainerConfig("harness-s", 4),
    groupSize: 2,
    promptsPerStep: 2,
    rolloutBudget: 24,
  };
  const { summary } = await trainMethod({
    benchmark,
    harness: lookupTextHarness,
    tasks,
    policy: createLookupSensitivePolicy(),
    learner,
    config,
    outDirectory,
    pool: lookupPool,
    onStep: (step) => steps.push(step),
  });
  const rescueRollouts = steps.reduce((sum, step) => sum + step.rolloutsRescue, 0);
  if (summary.steps < 1 || summary.rollouts > 24) throw new Error(`summary ${JSON.stringify(summary)}`);
  if (rescueRollouts === 0) throw new Error("harness-s ran no rescue rollout on the lookup pool");
  if (learner.batches.length === 0) throw new Error("the learner received no batch");
  console.log(
    `harness-s: trainMethod ${summary.steps} steps, ${summary.rollouts} rollouts (${rescueRollouts} rescue), ${learner.batches.length} learner updates`,
  );
} finally {
  await rm(outDirectory, { recursive: true, force: true });
}
