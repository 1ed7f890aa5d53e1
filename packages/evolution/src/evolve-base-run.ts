import { episodeSeed, labelTrajectory, modesOf, runJobs } from "@hs/failure-analysis";
import { observedTask } from "@hs/harness";
import type { Task, Trajectory } from "@hs/spec";
import type { EvolveOptions } from "./evolve.js";

/** The base run of an evolution: every trajectory (failures labelled), split by outcome. */
export interface BaseRun {
  /** Every base trajectory, failures with their labels. */
  trajectories: Trajectory[];
  /** The failures. */
  failures: Trajectory[];
  /** The successes. */
  successes: Trajectory[];
  /** How many failures carry each mode. */
  modeCounts: Record<string, number>;
}

/** The names of the tools of the first task's environment (the operators draw tool names from them). */
export async function probeToolNames(options: EvolveOptions, seed: number): Promise<string[]> {
  const probe = options.tasks[0];
  if (probe === undefined) return [];
  const environment = await options.benchmark.createEnvironment(probe, { seed });
  const toolNames = environment.tools.map((tool) => tool.name);
  await environment.close();
  return toolNames;
}

/** Runs the base harness `rollouts` times per task and labels every failure with the classifiers. */
export async function runBase(
  options: EvolveOptions,
  run: {
    rollouts: number;
    seed: number;
    classifiers: NonNullable<EvolveOptions["classifiers"]>;
    taskOf: (trajectory: Trajectory) => Task;
  },
): Promise<BaseRun> {
  const jobs = options.tasks.flatMap((task) =>
    Array.from({ length: run.rollouts }, (_, rollout) => ({
      task,
      harness: options.base,
      seed: episodeSeed(task.id, rollout, run.seed),
    })),
  );
  const trajectories: Trajectory[] = [];
  for (const trajectory of await runJobs(options, jobs)) {
    trajectories.push(
      trajectory.success
        ? trajectory
        : await labelTrajectory(trajectory, run.classifiers, {
            task: observedTask(options.benchmark, run.taskOf(trajectory)),
            onError: (classifierId, error) => options.onClassifierError?.(classifierId, error, trajectory.id),
          }),
    );
  }
  const failures = trajectories.filter((trajectory) => !trajectory.success);
  const successes = trajectories.filter((trajectory) => trajectory.success);
  const modeCounts: Record<string, number> = {};
  for (const failure of failures) {
    for (const mode of modesOf(failure)) modeCounts[mode] = (modeCounts[mode] ?? 0) + 1;
  }
  return { trajectories, failures, successes, modeCounts };
}
