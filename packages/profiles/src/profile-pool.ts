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
import type {
  FailureConventions,
  HarnessConfig,
  HarnessProfile,
  Pool,
  ProfileSet,
  Task,
  Trajectory,
} from "@hs/spec";
import { buildProfile, type ProfileBuilder } from "./build-profile.js";

/** The harnesses of a pool, base first. */
export function poolHarnesses(pool: Pool): { id: string; config: HarnessConfig; isBase: boolean }[] {
  return [
    { id: pool.base.id, config: pool.base.config, isBase: true },
    ...pool.siblings.map((sibling) => ({ id: sibling.id, config: sibling.config, isBase: false })),
  ];
}

/** Rollouts per task and harness when none are given (as many as `hs evolve` validates with). */
export const defaultProfileRollouts = 4;

/** Options of `profilePool`. */
export interface ProfilePoolOptions extends EpisodeRunner {
  /** The pool. */
  pool: Pool;
  /** Profiling tasks. */
  tasks: readonly Task[];
  /** Rollouts per task and harness (default `defaultProfileRollouts`). */
  rolloutsPerTask?: number;
  /** Seed (default 0). */
  seed?: number;
  /** Classifiers for the base failures (default generic rules). */
  classifiers?: readonly FailureClassifierV1[];
  /** Benchmark conventions for behaviour statistics. */
  conventions?: FailureConventions;
  /** Training step the profiles describe (default 0). */
  step?: number;
  /** Builds each profile from observed episodes (default `buildProfile`). */
  profileBuilder?: ProfileBuilder;
  /** Progress lines. */
  onProgress?: (message: string) => void;
}

/**
 * Profiles every harness of a pool for the runner's policy: runs base and siblings on the same tasks
 * and seeds, labels the base failures, and fills each sibling's rescue row from its results on exactly
 * those (task, seed) pairs. The new profiles are also the first entry of `history`.
 */
export async function profilePool(
  options: ProfilePoolOptions,
): Promise<{ profiles: ProfileSet; baseTrajectories: Trajectory[] }> {
  const rollouts = options.rolloutsPerTask ?? defaultProfileRollouts;
  const seed = options.seed ?? 0;
  const classifiers = options.classifiers ?? [createRuleClassifier(options.conventions)];
  const policyVersion = `${options.policy.id}@${options.policy.version}`;
  const keys = options.tasks.flatMap((task) =>
    Array.from({ length: rollouts }, (_, rollout) => ({ task, seed: episodeSeed(task.id, rollout, seed) })),
  );
  const profiles: Record<string, HarnessProfile> = {};
  let baseTrajectories: Trajectory[] = [];
  for (const harness of poolHarnesses(options.pool)) {
    options.onProgress?.(`profiling ${harness.id}: ${keys.length} episodes`);
    const results = await runJobs(
      options,
      keys.map((key) => ({ ...key, harness: harness.config })),
    );
    if (harness.isBase) {
      baseTrajectories = [];
      for (const [index, trajectory] of results.entries()) {
        const task = keys[index]?.task;
        baseTrajectories.push(
          trajectory.success
            ? trajectory
            : await labelTrajectory(
                trajectory,
                classifiers,
                task === undefined ? {} : { task: observedTask(options.benchmark, task) },
              ),
        );
      }
    }
    const rescueTrials = harness.isBase
      ? []
      : results.flatMap((trajectory, index) => {
          const base = baseTrajectories[index];
          return base === undefined || base.success
            ? []
            : [{ modes: modesOf(base), success: trajectory.success }];
        });
    const episodes = harness.isBase ? baseTrajectories : results;
    profiles[harness.id] = (options.profileBuilder ?? buildProfile)({
      harnessId: harness.id,
      policyVersion,
      trajectories: episodes.map((trajectory, index) =>
        observedTrajectory(options.benchmark, trajectory, keys[index]?.task),
      ),
      rescueTrials,
      ...(options.conventions === undefined ? {} : { conventions: options.conventions }),
    });
  }
  return {
    profiles: { schemaVersion: 1, profiles, history: [{ step: options.step ?? 0, profiles }] },
    baseTrajectories,
  };
}
