import type { EnvironmentCallOptions, EnvironmentV1, HarnessEvent, TrajectoryStep } from "@hs/spec";
import { closeEnvironment } from "./close-environment.js";
import { type EpisodeState, initialEpisodeState } from "./episode-state.js";
import { assertHarnessCallTools } from "./harness-calls.js";
import { renderInitialMessages } from "./render-initial-messages.js";
import type { RunEpisodeOptions } from "./run-episode-options.js";
import { metadataValues } from "./template.js";
import { createToolExposure, type ToolExposure } from "./tool-exposure.js";

/** One running episode: its inputs, environment and state, shared by the steps of `runEpisode`. */
export interface Episode {
  /** The options the episode was started with. */
  options: RunEpisodeOptions;
  /** The task's fresh environment. */
  environment: EnvironmentV1;
  /** The tools the harness shows and how they map onto environment calls. */
  exposure: ToolExposure;
  /** Whether actions are read from text (else native tool calls). */
  textProtocol: boolean;
  /** Options passed to every environment and policy call (the cancel signal). */
  callOptions: EnvironmentCallOptions;
  /** The task's metadata as `metadata.KEY` template values. */
  metadata: Record<string, string>;
  /** The episode state, updated in place by the steps. */
  state: EpisodeState;
  /** Environment calls of the prelude. */
  preludeCalls: TrajectoryStep["executed"];
  /** Events of the prelude. */
  preludeEvents: HarnessEvent[];
  /** How often each follow-up rule has fired. */
  followUpsFired: number[];
  /** How many results each follow-up rule's pattern has matched. */
  followUpsMatched: number[];
  /** Runs `work`, adding its milliseconds to the state's `kind`; returns its value and milliseconds. */
  timed<T>(kind: "environmentMs" | "policyMs", work: () => Promise<T>): Promise<[T, number]>;
}

/**
 * Creates the task's environment and the harness's view of it. A harness that does not fit the
 * environment (an unknown tool, a `{metadata.KEY}` the task lacks) closes the environment and rejects.
 */
export async function openEpisode(options: RunEpisodeOptions, now: () => number): Promise<Episode> {
  const { task, benchmark, harness, seed, signal } = options;
  const environment = await benchmark.createEnvironment(
    task,
    signal === undefined ? { seed } : { seed, signal },
  );
  let exposure: ToolExposure;
  let initial: EpisodeState["initial"];
  try {
    exposure = createToolExposure(harness.tools, environment.tools, task.metadata);
    assertHarnessCallTools(harness, environment.tools);
    initial = renderInitialMessages(harness.prompt, task, exposure.visible);
  } catch (error) {
    await closeEnvironment(environment, benchmark, task);
    throw error;
  }
  const state = initialEpisodeState(initial);
  return {
    options,
    environment,
    exposure,
    textProtocol: harness.actionFormat.kind === "text",
    callOptions: signal === undefined ? {} : { signal },
    metadata: metadataValues(task.metadata),
    state,
    preludeCalls: [],
    preludeEvents: [],
    followUpsFired: [],
    followUpsMatched: [],
    async timed(kind, work) {
      const begin = now();
      const value = await work();
      const elapsed = now() - begin;
      state[kind] += elapsed;
      return [value, elapsed];
    },
  };
}
