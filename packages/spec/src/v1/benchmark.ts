import type { ActionGrammarV1 } from "./action-grammar.js";
import type { EnvironmentV1 } from "./environment.js";
import type { InvalidInputError } from "./errors.js";
import type { EvolutionLibrary } from "./evolution-library.js";
import type { FailureConventions } from "./failure-conventions.js";
import type { GoldReplayOptionsV1, GoldReplayReportV1 } from "./gold-replay.js";
import type { HarnessConfig } from "./harness-config.js";
import type { Task } from "./task.js";

/** Where to load tasks from. */
export interface LoadTasksOptions {
  /** A named split of the benchmark's bundled data (e.g. `train`, `heldout`). */
  split?: string;
  /** A file in the benchmark's format, loaded instead of a bundled split. */
  path?: string;
}

/** Loaded tasks and the records that could not be loaded (each named by file, line and field). */
export interface LoadTasksResult {
  /** Tasks that loaded. */
  tasks: Task[];
  /** One error per bad record; the other records still load. */
  problems: InvalidInputError[];
}

/** The outcome of one graded episode, as benchmark metrics need it. */
export interface EpisodeOutcome {
  /** Task category. */
  category: string;
  /** Whether it was solved. */
  success: boolean;
  /** Reward in [0, 1]. */
  reward: number;
}

/** Options for creating an environment. */
export interface CreateEnvironmentOptions {
  /** Episode seed. */
  seed: number;
  /** Cancels creation. */
  signal?: AbortSignal;
}

/** A benchmark adapter (version 1). */
export interface BenchmarkV1 {
  /** Contract version. */
  readonly specificationVersion: "v1";
  /** Benchmark id, e.g. `swegym`. */
  readonly id: string;
  /** Bundled splits, in the order a user would expect (train first). */
  readonly splits: readonly string[];
  /** Loads tasks from a bundled split or from a file of the benchmark's format. */
  loadTasks(options: LoadTasksOptions): Promise<LoadTasksResult>;
  /** Creates an isolated environment for one episode of a task. */
  createEnvironment(task: Task, options: CreateEnvironmentOptions): Promise<EnvironmentV1>;
  /** Base-harness presets reproducing the benchmark's own protocols, by name. */
  readonly presets: Readonly<Record<string, HarnessConfig>>;
  /** Name of the preset used as the base harness by default. */
  readonly defaultPreset: string;
  /** Benchmark metrics under the benchmark's own names (e.g. `overall_cat_accuracy`). */
  summarize(outcomes: readonly EpisodeOutcome[]): Record<string, number>;
  /** The action grammar the embedded policy uses on this benchmark, when there is one. */
  readonly actionGrammar?: ActionGrammarV1;
  /** The split training reads by default (e.g. `train`); the first of `splits` when absent. */
  readonly trainSplit?: string;
  /** Splits that are never trained or tuned on, for held-out figures. */
  readonly heldoutSplits?: readonly string[];
  /** Observable conventions for failure rules, profiles and routers; generic ones when absent. */
  readonly failureConventions?: FailureConventions;
  /** Texts and macros for directional evolution; a generic library when absent. */
  readonly evolutionLibrary?: EvolutionLibrary;
  /**
   * The category a router, judge or Rank-1 may use for a task, derived only from what the policy is
   * shown (instruction, public metadata). Absent: routing sees no category (`Task.category` is for
   * metrics and may be a dataset annotation the agent never sees).
   */
  observableCategory?(task: Task): string;
  /**
   * The grader's secrets of a task (labels, reference solutions, hashes), when the benchmark can name
   * them: the CLI refuses, at load, a task that holds one (the conformance kit's rule, `taskGoldLeaks`).
   */
  goldOf?(task: Task): readonly string[];
  /** Runs every task's reference solution and an empty solution through the adapter and its grader. */
  goldReplay?(options: GoldReplayOptionsV1): Promise<GoldReplayReportV1>;
  /** Releases what the benchmark holds (connection pools, servers); safe to call twice. */
  close?(): Promise<void>;
}
