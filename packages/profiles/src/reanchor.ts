import {
  createRuleClassifier,
  type EpisodeRunner,
  episodeSeed,
  type FailureClassifierV1,
  labelTrajectory,
  modesOf,
  runJobs,
} from "@hs/failure-analysis";
import { observedTask, observedTrajectory } from "@hs/harness";
import type { FailureConventions } from "@hs/spec";
import {
  type HarnessProfile,
  InvalidInputError,
  type Pool,
  type ProfileSet,
  type Task,
  type Trajectory,
} from "@hs/spec";
import { buildProfile, type ProfileBuilder } from "./build-profile.js";
import { poolHarnesses } from "./profile-pool.js";

/** The probe set of a re-anchoring. */
export interface ProbeSet {
  /** Recent failed base-harness episodes from training (labelled or not). */
  recentFailures: readonly Trajectory[];
  /** A fixed task sample, the same at every re-anchoring, for success and behaviour. */
  fixedTasks: readonly Task[];
}

/** Options of `reanchorProfiles`. */
export interface ReanchorOptions extends EpisodeRunner {
  /** Current profiles (their history is kept). */
  profiles: ProfileSet;
  /** The frozen pool. */
  pool: Pool;
  /** The probe set. */
  probe: ProbeSet;
  /** Every task a recent failure may refer to, by id lookup. */
  tasks: readonly Task[];
  /** Training step of this re-anchoring. */
  step: number;
  /** Seed (default: the step). */
  seed?: number;
  /** Classifiers for unlabelled failures (default generic rules). */
  classifiers?: readonly FailureClassifierV1[];
  /** Benchmark conventions for behaviour statistics. */
  conventions?: FailureConventions;
  /** Builds each profile from observed episodes (default `buildProfile`). */
  profileBuilder?: ProfileBuilder;
}

/**
 * Policy-aware re-anchoring: re-runs the probe set under every harness of the pool with the runner's
 * (current) policy, rebuilds the profiles (success and behaviour from the fixed sample, the rescue row
 * from the recent failures, re-run with their own seeds) and appends them to `history` stamped with the
 * step, so drift over training can be plotted. The input is not modified.
 */
export async function reanchorProfiles(options: ReanchorOptions): Promise<ProfileSet> {
  const tasksById = new Map(options.tasks.map((task) => [task.id, task]));
  const classifiers = options.classifiers ?? [createRuleClassifier(options.conventions)];
  const failures: Trajectory[] = [];
  for (const trajectory of options.probe.recentFailures) {
    if (trajectory.success) continue;
    const task = tasksById.get(trajectory.taskId);
    if (task === undefined)
      throw new InvalidInputError(`recent failure of unknown task "${trajectory.taskId}"`, {
        field: "probe.recentFailures",
      });
    failures.push(
      trajectory.failureModes.length > 0
        ? trajectory
        : await labelTrajectory(trajectory, classifiers, { task: observedTask(options.benchmark, task) }),
    );
  }
  const seed = options.seed ?? options.step;
  const fixedJobs = options.probe.fixedTasks.map((task, index) => ({
    task,
    seed: episodeSeed(task.id, index, seed),
  }));
  const policyVersion = `${options.policy.id}@${options.policy.version}`;
  const profiles: Record<string, HarnessProfile> = {};
  for (const harness of poolHarnesses(options.pool)) {
    const fixed = await runJobs(
      options,
      fixedJobs.map((job) => ({ ...job, harness: harness.config })),
    );
    const rescues = harness.isBase
      ? []
      : await runJobs(
          options,
          failures.map((failure) => ({
            task: tasksById.get(failure.taskId) as Task,
            seed: failure.seed,
            harness: harness.config,
          })),
        );
    profiles[harness.id] = (options.profileBuilder ?? buildProfile)({
      harnessId: harness.id,
      policyVersion,
      trajectories: fixed.map((trajectory, index) =>
        observedTrajectory(options.benchmark, trajectory, fixedJobs[index]?.task),
      ),
      rescueTrials: rescues.map((trajectory, index) => ({
        modes: modesOf(failures[index] as Trajectory),
        success: trajectory.success,
      })),
      ...(options.conventions === undefined ? {} : { conventions: options.conventions }),
    });
  }
  return {
    schemaVersion: 1,
    profiles,
    history: [...options.profiles.history, { step: options.step, profiles }],
  };
}

/** One point of a drift series. */
export interface DriftPoint {
  /** Training step. */
  step: number;
  /** Harness id. */
  harnessId: string;
  /** Policy version measured. */
  policyVersion: string;
  /** Success rate on the probe sample. */
  successRate: number;
  /** Rescued / attempts pooled over the cells of the rescue row (a failure with two modes counts twice); null when none tried. */
  rescueRate: number | null;
}

/** The history as a flat series per harness and step, for plotting nonstationarity. */
export function profileDrift(profiles: ProfileSet): DriftPoint[] {
  return profiles.history.flatMap((entry) =>
    Object.values(entry.profiles).map((profile) => {
      const cells = Object.values(profile.rescueByMode);
      const attempts = cells.reduce((sum, cell) => sum + cell.attempts, 0);
      const rescued = cells.reduce((sum, cell) => sum + cell.rescued, 0);
      return {
        step: entry.step,
        harnessId: profile.harnessId,
        policyVersion: profile.policyVersion,
        successRate: profile.successRate,
        rescueRate: attempts === 0 ? null : rescued / attempts,
      };
    }),
  );
}
