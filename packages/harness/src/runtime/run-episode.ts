import type { Grade, Trajectory } from "@hs/spec";
import { CancelledError, HarnessSError } from "@hs/spec";
import { harnessHash } from "../harness-hash.js";
import { throwIfAborted } from "./cancellation.js";
import { closeEnvironment } from "./close-environment.js";
import { type Episode, openEpisode } from "./episode.js";
import { episodeTrajectory } from "./episode-trajectory.js";
import type { RunEpisodeOptions } from "./run-episode-options.js";
import { runPrelude } from "./run-harness-calls.js";
import { runStep } from "./run-step.js";

/** The grade of an episode that never reached grading. */
const noGrade: Grade = { reward: 0, success: false, details: {} };

/** Resets the environment, runs the prelude and the steps until one ends the episode, and grades. */
async function playEpisode(episode: Episode): Promise<Grade> {
  const { environment, callOptions, state } = episode;
  const { harness, signal } = episode.options;
  await episode.timed("environmentMs", () => environment.reset(callOptions));
  await runPrelude(episode);
  for (let index = 0; index < harness.budget.maxSteps && state.endReason === null; index++) {
    throwIfAborted(signal);
    await runStep(episode, index);
  }
  const [grade] = await episode.timed("environmentMs", () => environment.grade(callOptions));
  return grade;
}

/**
 * Drives one episode: renders the harness's view, asks the policy, parses the action, executes it in a
 * fresh environment, applies the context and error-recovery policies, stops at submit or budget, grades
 * and returns the trajectory. Policy or environment failures end the episode with `endReason: "error"`;
 * cancellation rejects, and so does a harness that does not fit the environment (a tool it exposes does
 * not exist, a `{metadata.KEY}` the task lacks).
 */
export async function runEpisode(options: RunEpisodeOptions): Promise<Trajectory> {
  const { task, benchmark, signal } = options;
  const now = options.now ?? Date.now;
  const startedAt = now();
  const hash = harnessHash(options.harness);
  throwIfAborted(signal);
  const episode = await openEpisode(options, now);
  let grade = noGrade;
  try {
    grade = await playEpisode(episode);
  } catch (error) {
    if (HarnessSError.isInstance(error) && error.name === "HarnessSCancelledError") throw error;
    if (signal?.aborted) throw new CancelledError("episode cancelled", { cause: error });
    episode.state.endReason = "error";
    episode.state.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } finally {
    await closeEnvironment(episode.environment, benchmark, task);
  }
  return episodeTrajectory(episode, { harnessHash: hash, grade, startedAt, wallMs: () => now() - startedAt });
}
