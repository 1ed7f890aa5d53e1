// Rollout and learner throughput of the embedded policy on DBBench, beside the environment-only cost
// of the same episodes (the recorded tool calls replayed on fresh environments, no policy).
// Each phase reports wall seconds and this process's CPU seconds (user + system), so figures taken on a
// shared machine can be compared by CPU time.
// Usage: pnpm build && node bench/embedded-rollouts.mjs [episodes] [updates]
import { performance } from "node:perf_hooks";
import * as dbbench from "../packages/benchmarks-dbbench/dist/index.js";
import { createDbBenchGrammar } from "../packages/grammar-dbbench/dist/index.js";
import { runEpisode } from "../packages/harness/dist/index.js";
import { EmbeddedGrpoLearner } from "../packages/learner-embedded/dist/index.js";
import { createEmbeddedPolicy } from "../packages/policy-embedded/dist/index.js";
import { groupSamples } from "../packages/rescue-grpo/dist/index.js";

const episodes = Number(process.argv[2] ?? 256);
const updates = Number(process.argv[3] ?? 8);
// as in GRPO training: G = 8 rollouts of each prompt in a row
const groupOf = 8;
const taskOf = (episode) => tasks[Math.floor(episode / groupOf) % tasks.length];
if (typeof dbbench.createDbBench !== "function") {
  console.error(
    "bench/embedded-rollouts: @hs/benchmarks-dbbench does not export createDbBench yet; build it first.",
  );
  process.exit(1);
}
const benchmark = await dbbench.createDbBench({ actionGrammar: createDbBenchGrammar() });
const { tasks } = await benchmark.loadTasks({ split: benchmark.splits[0] });
const harness = benchmark.presets[benchmark.defaultPreset];
const policy = await createEmbeddedPolicy({ grammar: benchmark.actionGrammar, seed: 0 });

const cpuSeconds = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};
let started = performance.now();
let cpuStarted = cpuSeconds();
const trajectories = [];
for (let episode = 0; episode < episodes; episode++) {
  const task = taskOf(episode);
  trajectories.push(await runEpisode({ task, benchmark, harness, policy, seed: episode }));
}
const rolloutSeconds = (performance.now() - started) / 1000;
const rolloutCpu = cpuSeconds() - cpuStarted;
const steps = trajectories.reduce((sum, trajectory) => sum + trajectory.steps.length, 0);

started = performance.now();
cpuStarted = cpuSeconds();
for (const [index, trajectory] of trajectories.entries()) {
  const environment = await benchmark.createEnvironment(taskOf(index), { seed: index });
  await environment.reset();
  for (const step of trajectory.steps)
    for (const executed of step.executed) await environment.step(executed.call);
  await environment.grade();
  await environment.close();
}
const environmentSeconds = (performance.now() - started) / 1000;
const environmentCpu = cpuSeconds() - cpuStarted;

const learner = new EmbeddedGrpoLearner({ policy, epochs: 1 });
const groupSize = 8;
const batch = [];
for (let start = 0; start + groupSize <= Math.min(trajectories.length, 64); start += groupSize) {
  const group = {
    task: taskOf(start),
    harnessId: harness.id,
    trajectories: trajectories.slice(start, start + groupSize),
  };
  const rewards = group.trajectories.map((trajectory) => trajectory.reward);
  const rewarded = rewards.every((reward) => reward === rewards[0])
    ? group.trajectories.map((trajectory, index) => ({ ...trajectory, reward: index % 2 }))
    : group.trajectories;
  batch.push(...groupSamples({ ...group, trajectories: rewarded }, "grpo"));
}
started = performance.now();
cpuStarted = cpuSeconds();
for (let update = 0; update < updates; update++) await learner.update({ samples: batch });
const learnerSeconds = (performance.now() - started) / 1000;
const learnerCpu = cpuSeconds() - cpuStarted;
const tokens = learner.replay({ samples: batch }).oldLogprobs.length;

console.log(
  JSON.stringify(
    {
      episodes,
      steps,
      rollout_episodes_per_second: episodes / rolloutSeconds,
      environment_only_episodes_per_second: episodes / environmentSeconds,
      policy_share_of_rollout_time: 1 - environmentSeconds / rolloutSeconds,
      learner_updates_per_second: updates / learnerSeconds,
      learner_update_ms_beside_environment_ms_of_its_episodes: {
        update: (1000 * learnerSeconds) / updates,
        environment: (1000 * environmentSeconds * batch.length) / episodes,
      },
      cpu_seconds: { rollouts: rolloutCpu, environment_only: environmentCpu, learner: learnerCpu },
      rollout_episodes_per_cpu_second: episodes / rolloutCpu,
      environment_only_episodes_per_cpu_second: episodes / environmentCpu,
      learner_updates_per_cpu_second: updates / learnerCpu,
      learner_batch: { trajectories: batch.length, decisions: tokens },
      success_rate_untrained: trajectories.filter((trajectory) => trajectory.success).length / episodes,
    },
    null,
    2,
  ),
);
