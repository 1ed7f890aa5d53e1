import type { Trajectory } from "@hs/spec";
import { runEpisode } from "./run-episode.js";
import type { RunEpisodeOptions } from "./run-episode-options.js";

/**
 * Where episodes run: in this process (`inProcessExecutor`) or elsewhere (a queue's workers). An
 * executor must return the trajectory `runEpisode` would return for the same options, so the code that
 * collects rollouts does not depend on where they ran.
 */
export interface EpisodeExecutor {
  /** Runs one episode and returns its trajectory. */
  run(options: RunEpisodeOptions): Promise<Trajectory>;
  /** Episodes worth keeping in flight at once through this executor. */
  readonly concurrency: number;
}

/** Runs every episode in this process, one at a time unless the caller asks for more. */
export const inProcessExecutor: EpisodeExecutor = { run: runEpisode, concurrency: 1 };
