import type { ActionGrammarV1 } from "./action-grammar.js";
import type { BenchmarkV1 } from "./benchmark.js";
import type { FailureConventions } from "./failure-conventions.js";
import type { RouterV1 } from "./router.js";

/** One command-line option a plugin adds to `hs` (e.g. `--engine`, `--repos`). */
export interface PluginOptionV1 {
  /** `string` takes a value; `boolean` is a switch. */
  type: "string" | "boolean";
  /** One line for `--help`. */
  description: string;
}

/** Values of a plugin's own options, as parsed from the command line (absent when not given). */
export type PluginOptionValues = Readonly<Record<string, string | boolean | undefined>>;

/**
 * What `hs quickstart --bench` uses on this benchmark where the user gave no value: a main job that
 * fits the cost of its episodes (a benchmark whose episodes run test suites needs a smaller budget than
 * one whose episodes are SQL queries). Every field is optional; absent ones keep quickstart's defaults.
 */
export interface MainJobDefaultsV1 {
  /** Rollouts per training run. */
  budget?: number;
  /** Seeds per method. */
  seeds?: number;
  /** Training tasks used by evolve and profile (0: all). */
  evolveTasks?: number;
  /** Rollouts per task in evolve and profile. */
  rollouts?: number;
  /** Evolve's generations per direction. */
  generations?: number;
  /** Evolve's children per parent and generation. */
  candidates?: number;
  /** Base failures per direction each evolve candidate is validated on. */
  maxFailures?: number;
  /** Rollouts per prompt in training. */
  groupSize?: number;
  /** Groups per update in training. */
  promptsPerStep?: number;
}

/** What `hs` hands a benchmark plugin besides its option values. */
export interface BenchmarkPluginContextV1 {
  /** The action grammar loaded from `grammarModule`, for the benchmark to expose as `actionGrammar`. */
  actionGrammar?: ActionGrammarV1;
}

/**
 * What a benchmark package exports (as `benchmarkPlugin` or as its default export) so that `hs --bench
 * PACKAGE-OR-PATH` can run it without an edit to this repository (version 1).
 */
export interface BenchmarkPluginV1 {
  /** Contract version. */
  readonly specificationVersion: "v1";
  /** Benchmark id, the same as the created benchmark's `id`. */
  readonly id: string;
  /** One line for `--help`. */
  readonly description: string;
  /** Options the plugin adds to every `hs` command that takes `--bench`, by name without `--`. */
  readonly options: Readonly<Record<string, PluginOptionV1>>;
  /**
   * Module specifier of the embedded policy's action grammar for this benchmark (a package exporting a
   * `GrammarPluginV1`), when it lives in a package of its own; `hs` imports it only for the embedded
   * policy. A grammar the benchmark carries itself is `BenchmarkV1.actionGrammar` instead.
   */
  readonly grammarModule?: string;
  /** `hs quickstart`'s settings for this benchmark where the user gave none. */
  readonly mainJobDefaults?: MainJobDefaultsV1;
  /** Creates the benchmark from its option values (and the grammar `hs` loaded, if any). */
  createBenchmark(values: PluginOptionValues, context?: BenchmarkPluginContextV1): Promise<BenchmarkV1>;
}

/** What an action-grammar package exports (as `grammarPlugin` or default) (version 1). */
export interface GrammarPluginV1 {
  /** Contract version. */
  readonly specificationVersion: "v1";
  /** Id of the benchmark whose views it reads. */
  readonly benchmark: string;
  /** Creates the grammar. */
  createGrammar(): ActionGrammarV1;
}

/** What a router is built from: only observable conventions and the benchmark's public parts. */
export interface RouterContextV1 {
  /** The benchmark being trained or evaluated on (absent when `hs route` reads recorded episodes only). */
  benchmark?: BenchmarkV1;
  /** Its failure conventions (generic when it has none). */
  conventions: FailureConventions;
}

/** What a router package exports (as `routerPlugin` or default) for `hs --router` (version 1). */
export interface RouterPluginV1 {
  /** Contract version. */
  readonly specificationVersion: "v1";
  /** Router id. */
  readonly id: string;
  /** One line for `--help`. */
  readonly description: string;
  /** Creates the router. */
  createRouter(context: RouterContextV1): RouterV1;
}
