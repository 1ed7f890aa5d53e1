import {
  createRuleClassifier,
  defaultModeDirections,
  type EpisodeRunner,
  type FailureClassifierV1,
  type FailureMode,
  modesOf,
  runJobs,
} from "@hs/failure-analysis";
import { createPool, createRandom, genericLibrary, shuffle } from "@hs/harness";
import {
  type EvolutionLibrary,
  type FixDirection,
  fixDirections,
  type HarnessConfig,
  type Pool,
  rerollControlId,
  type Sibling,
  type Task,
  type Trajectory,
} from "@hs/spec";
import { admitBest } from "./candidate-admission.js";
import { searchDirection } from "./candidate-search.js";
import type { EvolutionRun } from "./evolution-run.js";
import { type BaseRun, probeToolNames, runBase } from "./evolve-base-run.js";
import { builtinOperators, type MutationOperator } from "./operators.js";
import { parsePool } from "./pool-file.js";
import type { ProposalLogEntry, ProposerV1 } from "./proposer.js";
import { createRerollControl, freshSeed } from "./reroll-control.js";
import { measureRescueProperties, type RescueProperties, type RescueRecord } from "./rescue-properties.js";

/** The defaults of `evolvePool`'s numeric options (the CLI shows and uses the same). */
export const evolveDefaults = {
  rolloutsPerTask: 4,
  generations: 3,
  candidatesPerGeneration: 3,
  firstGeneration: "every-entry",
  firstGenerationCap: 16,
  beamWidth: 2,
  successSample: 8,
  maxFailuresPerDirection: 512,
  minScore: 1,
  minRescues: 3,
  controlPValue: 0.1,
} as const;

/**
 * How a direction's first generation is made: `every-entry` validates every distinct single edit of
 * the base that the direction's operators can make (each operator with each library option), in a
 * fixed order; `sampled` draws `candidatesPerGeneration` operators at random, as later generations do.
 */
export type FirstGeneration = "every-entry" | "sampled";

/** The values `firstGeneration` takes. */
export const firstGenerations: readonly FirstGeneration[] = ["every-entry", "sampled"];

/** Options of `evolvePool`. */
export interface EvolveOptions extends EpisodeRunner {
  /** Training tasks. */
  tasks: readonly Task[];
  /** The base harness. */
  base: HarnessConfig;
  /** Base rollouts per task (default `evolveDefaults.rolloutsPerTask`). */
  rolloutsPerTask?: number;
  /** Seed of everything random (default 0). */
  seed?: number;
  /** Directions to evolve (default all). */
  directions?: readonly FixDirection[];
  /** Generations per direction (default `evolveDefaults.generations`). */
  generations?: number;
  /** Operator children per parent per generation (default `evolveDefaults.candidatesPerGeneration`). */
  candidatesPerGeneration?: number;
  /** How each direction's first generation is made (default `evolveDefaults.firstGeneration`). */
  firstGeneration?: FirstGeneration;
  /**
   * Most first-generation operator children per direction with `every-entry`: with more single edits
   * than this, a seeded sample of this many (default `evolveDefaults.firstGenerationCap`).
   */
  firstGenerationCap?: number;
  /** Parents kept between generations (default `evolveDefaults.beamWidth`). */
  beamWidth?: number;
  /** Base successes each candidate is checked on for regressions (default `evolveDefaults.successSample`). */
  successSample?: number;
  /** Most base failures of a direction a candidate is validated on (default `evolveDefaults.maxFailuresPerDirection`). */
  maxFailuresPerDirection?: number;
  /** Failure classifiers, in order (default: the generic rules). */
  classifiers?: readonly FailureClassifierV1[];
  /** Texts and macros the operators draw from (default generic). */
  library?: EvolutionLibrary;
  /** Mutation operators (default the built-in ones). */
  operators?: readonly MutationOperator[];
  /** An LLM proposer asked once per parent and generation, when given. */
  proposer?: ProposerV1;
  /** Which directions repair which modes. */
  modeDirections?: Readonly<Record<FailureMode, readonly FixDirection[]>>;
  /**
   * Least `rescued - controlRescued - regressions` for a sibling to join the pool, where the re-roll
   * control is the base harness run on the same failures with the same fresh seeds (default
   * `evolveDefaults.minScore`).
   */
  minScore?: number;
  /** Least base failures a sibling must rescue to join the pool (default `evolveDefaults.minRescues`). */
  minRescues?: number;
  /**
   * A sibling joins the pool only when the one-sided sign test of it against the re-roll control, on
   * its direction's failures, gives a p-value below this (default `evolveDefaults.controlPValue`).
   */
  controlPValue?: number;
  /**
   * Re-run the chosen candidate and the control on other fresh seeds and keep it only when it still
   * rescues more failures than the control there (default true).
   */
  confirm?: boolean;
  /** Run every sibling on every base failure to measure the three properties (default true). */
  measureProperties?: boolean;
  /** Clock for `createdAt` (default `Date.now`). */
  now?: () => number;
  /** Progress lines. */
  onProgress?: (message: string) => void;
  /**
   * Called once for each classifier that threw while labelling a base failure (the episode keeps the
   * labels of the other classifiers). Absent: such failures are not reported.
   */
  onClassifierError?: (classifierId: string, error: unknown, trajectoryId: string) => void;
}

/** One validated candidate. */
export interface CandidateRecord {
  /** Candidate id. */
  id: string;
  /** Generation (1-based). */
  generation: number;
  /** Parent id. */
  parent: string;
  /** Ancestors, base first. */
  lineage: string[];
  /** How it was made: operator names or the proposer id, oldest first. */
  edits: string[];
  /** Config hash. */
  hash: string;
  /** Validation statistics. */
  validation: Sibling["validation"];
  /** rescued - controlRescued - regressions. */
  score: number;
}

/** What evolution did, for the record and the README figures. */
export interface EvolutionReport {
  /** The base run. */
  baseRun: { episodes: number; successes: number; failures: number; modeCounts: Record<string, number> };
  /** Per direction: the failures it worked on, its candidates and the outcome. */
  directions: {
    direction: FixDirection;
    failures: number;
    candidates: CandidateRecord[];
    chosen: string | null;
    outcome: string;
  }[];
  /** Every LLM proposal, accepted or rejected with its reason. */
  proposals: ProposalLogEntry[];
  /** Rescue matrix, locality and complementarity over all base failures (`base-reroll` is the chance control). */
  properties: RescueProperties | null;
}

/**
 * Directional harness evolution. Runs the base harness, labels its failures, and for each direction
 * grows candidates with that direction's operators (and the proposer) and validates each on the base
 * failures of that direction, re-run with fresh seeds shared with the base harness re-rolled (the
 * control), and on a sample of base successes (their own seeds: regressions). Selects by rescues beyond
 * the control minus regressions over a few generations; the best per direction joins the frozen pool
 * when it beats the control by a sign test and again on other fresh seeds. Then measures the rescue
 * matrix, locality and complementarity over all base failures on a third set of fresh seeds.
 */
export async function evolvePool(
  given: EvolveOptions,
): Promise<{ pool: Pool; report: EvolutionReport; baseTrajectories: Trajectory[] }> {
  const seed = given.seed ?? 0;
  const progress = given.onProgress ?? (() => {});
  const options = withEpisodeProgress(given, progress);
  const tasksById = new Map(options.tasks.map((task) => [task.id, task]));
  const taskOf = (trajectory: Trajectory) => tasksById.get(trajectory.taskId) as Task;
  const toolNames = await probeToolNames(options, seed);
  const rollouts = options.rolloutsPerTask ?? evolveDefaults.rolloutsPerTask;
  progress(`base run: ${options.tasks.length} tasks x ${rollouts} rollouts`);
  const classifiers = options.classifiers ?? [createRuleClassifier()];
  const base = await runBase(options, { rollouts, seed, classifiers, taskOf });
  const { failures, successes, modeCounts } = base;
  progress(
    `base: ${successes.length}/${base.trajectories.length} solved; modes ${JSON.stringify(modeCounts)}`,
  );
  const run = evolutionRun(options, { seed, progress, toolNames, taskOf, base });
  const report: EvolutionReport = {
    baseRun: {
      episodes: base.trajectories.length,
      successes: successes.length,
      failures: failures.length,
      modeCounts,
    },
    directions: [],
    proposals: run.proposals,
    properties: null,
  };
  const siblings: Sibling[] = [];
  for (const direction of options.directions ?? fixDirections) {
    const { entry, sibling } = await evolveDirection(run, direction);
    report.directions.push(entry);
    if (sibling !== null) siblings.push(sibling);
  }
  const pool = parsePool(
    createPool({
      benchmark: options.benchmark.id,
      createdAt: new Date((options.now ?? Date.now)()).toISOString(),
      policyVersion: `${options.policy.id}@${options.policy.version}`,
      base: options.base,
      siblings,
    }),
  );
  if (options.measureProperties !== false && siblings.length > 0 && failures.length > 0) {
    progress(`measuring: ${siblings.length} siblings + re-roll control on ${failures.length} base failures`);
    report.properties = await measureOnFailures(options, pool, failures, taskOf, seed, run.modeDirections);
  }
  return { pool, report, baseTrajectories: base.trajectories };
}

/** Seconds between two progress lines of one batch of episodes. */
const episodeProgressSeconds = 10;

/** The options with a line of progress at most every 10 s while a batch of episodes runs (unless given one). */
function withEpisodeProgress(options: EvolveOptions, progress: (message: string) => void): EvolveOptions {
  if (options.onEpisodeDone !== undefined || options.onProgress === undefined) return options;
  let last = Date.now();
  const onEpisodeDone = (done: number, total: number) => {
    if (done === total || Date.now() - last < episodeProgressSeconds * 1000) return;
    last = Date.now();
    progress(`  ${done}/${total} episodes`);
  };
  return { ...options, onEpisodeDone };
}

/** The shared parts of a run once the base run is done; draws the sample of successes first. */
function evolutionRun(
  options: EvolveOptions,
  context: Pick<EvolutionRun, "progress" | "toolNames" | "taskOf"> & { seed: number; base: BaseRun },
): EvolutionRun {
  const { seed, taskOf, base } = context;
  const random = createRandom(seed);
  const sampleSize = options.successSample ?? evolveDefaults.successSample;
  const successSample = shuffle(base.successes, random).slice(0, sampleSize);
  const reroll = createRerollControl({
    runner: options,
    base: options.base,
    failures: base.failures,
    taskOf,
    seed,
  });
  return {
    options,
    random,
    progress: context.progress,
    library: options.library ?? genericLibrary,
    operators: options.operators ?? builtinOperators,
    toolNames: context.toolNames,
    modeDirections: options.modeDirections ?? defaultModeDirections,
    taskOf,
    proposals: [],
    failures: base.failures,
    reroll,
    async validate(config, directionFailures) {
      const successJobs = successSample.map((trajectory) => ({
        task: taskOf(trajectory),
        harness: config,
        seed: trajectory.seed,
      }));
      const { paired, extra } = await reroll.paired(config, directionFailures, "selection", successJobs);
      return {
        failuresTried: paired.failuresTried,
        rescued: paired.rescued,
        successesTried: extra.length,
        regressions: extra.filter((trajectory) => !trajectory.success).length,
        control: paired,
      };
    },
    search: {
      generations: options.generations ?? evolveDefaults.generations,
      perParent: options.candidatesPerGeneration ?? evolveDefaults.candidatesPerGeneration,
      beamWidth: options.beamWidth ?? evolveDefaults.beamWidth,
      firstGeneration: options.firstGeneration ?? evolveDefaults.firstGeneration,
      firstGenerationCap: options.firstGenerationCap ?? evolveDefaults.firstGenerationCap,
    },
    admission: {
      minScore: options.minScore ?? evolveDefaults.minScore,
      minRescues: options.minRescues ?? evolveDefaults.minRescues,
      controlPValue: options.controlPValue ?? evolveDefaults.controlPValue,
    },
  };
}

/** One direction: its base failures, the search over its candidates, and the admission of the best. */
async function evolveDirection(
  run: EvolutionRun,
  direction: FixDirection,
): Promise<{ entry: EvolutionReport["directions"][number]; sibling: Sibling | null }> {
  const { options, modeDirections } = run;
  const failures = run.failures
    .filter((trajectory) =>
      modesOf(trajectory).some((mode) => (modeDirections[mode] ?? []).includes(direction)),
    )
    .slice(0, options.maxFailuresPerDirection ?? evolveDefaults.maxFailuresPerDirection);
  const entry: EvolutionReport["directions"][number] = {
    direction,
    failures: failures.length,
    candidates: [],
    chosen: null,
    outcome: "",
  };
  if (failures.length === 0) {
    entry.outcome = "no base failures of this direction's modes";
    run.progress(`${direction}: skipped (${entry.outcome})`);
    return { entry, sibling: null };
  }
  const best = await searchDirection(run, direction, failures, entry);
  if (best === undefined) {
    entry.outcome = "no operator applied";
    return { entry, sibling: null };
  }
  return { entry, sibling: await admitBest(run, direction, best, failures, entry) };
}

/**
 * Runs every sibling of a pool and the base harness (the re-roll control) on the given labelled base
 * failures, all with the same fresh seeds per failure, and measures the three properties.
 */
export async function measureOnFailures(
  runner: EpisodeRunner,
  pool: Pool,
  failures: readonly Trajectory[],
  taskOf: (trajectory: Trajectory) => Task,
  seed = 0,
  modeDirections: Readonly<Record<FailureMode, readonly FixDirection[]>> = defaultModeDirections,
): Promise<RescueProperties> {
  const records: RescueRecord[] = failures.map((failure) => ({
    taskId: failure.taskId,
    seed: failure.seed,
    modes: modesOf(failure),
    rescuedBy: {},
  }));
  const harnesses = [
    ...pool.siblings.map((sibling) => ({
      id: sibling.id,
      config: sibling.config,
      direction: sibling.direction as FixDirection | null,
    })),
    { id: rerollControlId, config: pool.base.config, direction: null },
  ];
  for (const harness of harnesses) {
    const jobs = failures.map((failure, index) => ({
      task: taskOf(failure),
      harness: harness.config,
      seed: freshSeed(failure, index, "properties", seed),
    }));
    const results = await runJobs(runner, jobs);
    results.forEach((trajectory, index) => {
      (records[index] as RescueRecord).rescuedBy[harness.id] = trajectory.success;
    });
  }
  return measureRescueProperties(records, harnesses, modeDirections);
}
