import {
  createRuleClassifier,
  defaultModeDirections,
  type EpisodeRunner,
  episodeSeed,
  type FailureClassifierV1,
  type FailureMode,
  labelTrajectory,
  modesOf,
  runJobs,
} from "@hs/failure-analysis";
import {
  createPool,
  createSibling,
  type FixDirection,
  fixDirections,
  type HarnessConfig,
  harnessHash,
  observedTask,
  observedTrajectory,
  type Pool,
  rerollControlId,
  type Sibling,
  shuffle,
  type Task,
  type Trajectory,
} from "@hs/harness";
import { type EvolutionLibrary, genericLibrary } from "./evolution-library.js";
import { applyOperator, builtinOperators, createRandom, type MutationOperator, pick } from "./operators.js";
import { parsePool } from "./pool-file.js";
import type { ProposalLogEntry, ProposerV1 } from "./proposer.js";
import { createRerollControl, freshSeed, type PairedRescues } from "./reroll-control.js";
import { measureRescueProperties, type RescueProperties, type RescueRecord } from "./rescue-properties.js";

/** The defaults of `evolvePool`'s numeric options (the CLI shows and uses the same). */
export const evolveDefaults = {
  rolloutsPerTask: 4,
  generations: 3,
  candidatesPerGeneration: 3,
  beamWidth: 2,
  successSample: 8,
  maxFailuresPerDirection: 512,
  minScore: 1,
  minRescues: 3,
  controlPValue: 0.1,
} as const;

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

/** Id of the control row: the base harness re-run with fresh seeds. */
export { rerollControlId } from "@hs/harness";

interface Candidate {
  config: HarnessConfig;
  record: CandidateRecord;
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
  options: EvolveOptions,
): Promise<{ pool: Pool; report: EvolutionReport; baseTrajectories: Trajectory[] }> {
  const seed = options.seed ?? 0;
  const random = createRandom(seed);
  const progress = options.onProgress ?? (() => {});
  const modeDirections = options.modeDirections ?? defaultModeDirections;
  const classifiers = options.classifiers ?? [createRuleClassifier()];
  const library = options.library ?? genericLibrary;
  const operators = options.operators ?? builtinOperators;
  const rollouts = options.rolloutsPerTask ?? evolveDefaults.rolloutsPerTask;
  const tasksById = new Map(options.tasks.map((task) => [task.id, task]));
  const taskOf = (trajectory: Trajectory) => tasksById.get(trajectory.taskId) as Task;
  const proposals: ProposalLogEntry[] = [];

  const probe = options.tasks[0];
  let toolNames: string[] = [];
  if (probe !== undefined) {
    const environment = await options.benchmark.createEnvironment(probe, { seed });
    toolNames = environment.tools.map((tool) => tool.name);
    await environment.close();
  }

  progress(`base run: ${options.tasks.length} tasks x ${rollouts} rollouts`);
  const baseJobs = options.tasks.flatMap((task) =>
    Array.from({ length: rollouts }, (_, rollout) => ({
      task,
      harness: options.base,
      seed: episodeSeed(task.id, rollout, seed),
    })),
  );
  const baseRaw = await runJobs(options, baseJobs);
  const baseTrajectories: Trajectory[] = [];
  for (const trajectory of baseRaw) {
    baseTrajectories.push(
      trajectory.success
        ? trajectory
        : await labelTrajectory(trajectory, classifiers, {
            task: observedTask(options.benchmark, taskOf(trajectory)),
            onError: (classifierId, error) => options.onClassifierError?.(classifierId, error, trajectory.id),
          }),
    );
  }
  const failures = baseTrajectories.filter((trajectory) => !trajectory.success);
  const successes = baseTrajectories.filter((trajectory) => trajectory.success);
  const modeCounts: Record<string, number> = {};
  for (const failure of failures)
    for (const mode of modesOf(failure)) modeCounts[mode] = (modeCounts[mode] ?? 0) + 1;
  progress(
    `base: ${successes.length}/${baseTrajectories.length} solved; modes ${JSON.stringify(modeCounts)}`,
  );

  const successSample = shuffle(successes, random).slice(
    0,
    options.successSample ?? evolveDefaults.successSample,
  );

  const reroll = createRerollControl({ runner: options, base: options.base, failures, taskOf, seed });
  const validate = async (
    config: HarnessConfig,
    directionFailures: readonly Trajectory[],
  ): Promise<Sibling["validation"]> => {
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
  };

  const report: EvolutionReport = {
    baseRun: {
      episodes: baseTrajectories.length,
      successes: successes.length,
      failures: failures.length,
      modeCounts,
    },
    directions: [],
    proposals,
    properties: null,
  };
  const siblings: Sibling[] = [];
  const generations = options.generations ?? evolveDefaults.generations;
  const perParent = options.candidatesPerGeneration ?? evolveDefaults.candidatesPerGeneration;
  const beamWidth = options.beamWidth ?? evolveDefaults.beamWidth;
  const admission = {
    minScore: options.minScore ?? evolveDefaults.minScore,
    minRescues: options.minRescues ?? evolveDefaults.minRescues,
    controlPValue: options.controlPValue ?? evolveDefaults.controlPValue,
  };

  for (const direction of options.directions ?? fixDirections) {
    const directionFailures = failures
      .filter((trajectory) =>
        modesOf(trajectory).some((mode) => (modeDirections[mode] ?? []).includes(direction)),
      )
      .slice(0, options.maxFailuresPerDirection ?? evolveDefaults.maxFailuresPerDirection);
    const entry: EvolutionReport["directions"][number] = {
      direction,
      failures: directionFailures.length,
      candidates: [],
      chosen: null,
      outcome: "",
    };
    report.directions.push(entry);
    if (directionFailures.length === 0) {
      entry.outcome = "no base failures of this direction's modes";
      progress(`${direction}: skipped (${entry.outcome})`);
      continue;
    }
    const seen = new Set([harnessHash(options.base)]);
    const all: Candidate[] = [];
    let parents: { config: HarnessConfig; id: string; lineage: string[]; edits: string[] }[] = [
      { config: options.base, id: options.base.id, lineage: [], edits: [] },
    ];
    const directionOperators = operators.filter((operator) => operator.direction === direction);
    let counter = 0;
    for (let generation = 1; generation <= generations; generation++) {
      const children: { config: HarnessConfig; parent: (typeof parents)[number]; edit: string }[] = [];
      for (const parent of parents) {
        for (
          let attempt = 0;
          attempt < perParent * 3 && children.filter((child) => child.parent === parent).length < perParent;
          attempt++
        ) {
          const operator = pick(directionOperators, random);
          if (operator === undefined) break;
          const config = applyOperator(operator, parent.config, { random, library, toolNames });
          if (config === null) continue;
          const hash = harnessHash(config);
          if (seen.has(hash)) continue;
          seen.add(hash);
          children.push({ config, parent, edit: operator.name });
        }
        if (options.proposer !== undefined) {
          const proposal = await options.proposer.propose({
            direction,
            config: parent.config,
            failures: directionFailures.map((failure) =>
              observedTrajectory(options.benchmark, failure, taskOf(failure)),
            ),
            seed: Math.floor(random() * 2 ** 31),
            ...(options.signal === undefined ? {} : { signal: options.signal }),
          });
          proposals.push({
            proposerId: options.proposer.id,
            direction,
            accepted: proposal.accepted,
            detail: proposal.accepted ? proposal.rationale : proposal.reason,
          });
          if (proposal.accepted && !seen.has(harnessHash(proposal.config))) {
            seen.add(harnessHash(proposal.config));
            children.push({ config: proposal.config, parent, edit: options.proposer.id });
          }
        }
      }
      if (children.length === 0) break;
      for (const child of children) {
        const id = `${direction}-g${generation}-c${counter++}`;
        const config = { ...child.config, id };
        const validation = await validate(config, directionFailures);
        const record: CandidateRecord = {
          id,
          generation,
          parent: child.parent.id,
          lineage: [...child.parent.lineage, child.parent.id],
          edits: [...child.parent.edits, child.edit],
          hash: harnessHash(config),
          validation,
          score: scoreOf(validation),
        };
        all.push({ config, record });
        entry.candidates.push(record);
      }
      const ranked = [...all].sort(
        (a, b) => b.record.score - a.record.score || a.record.id.localeCompare(b.record.id),
      );
      parents = ranked.slice(0, beamWidth).map((candidate) => ({
        config: candidate.config,
        id: candidate.record.id,
        lineage: candidate.record.lineage,
        edits: candidate.record.edits,
      }));
      progress(
        `${direction}: generation ${generation}: ${children.length} candidates, best score ${ranked[0]?.record.score ?? "-"}`,
      );
    }
    const best = [...all].sort(
      (a, b) => b.record.score - a.record.score || a.record.id.localeCompare(b.record.id),
    )[0];
    if (best === undefined) {
      entry.outcome = "no operator applied";
      continue;
    }
    const refusal = admissionRefusal(best.record, admission);
    if (refusal !== null) {
      entry.outcome = `best candidate ${best.record.id} ${refusal}; not added`;
      progress(`${direction}: ${entry.outcome}`);
      continue;
    }
    if (options.confirm !== false) {
      const { paired } = await reroll.paired(best.config, directionFailures, "confirmation");
      best.record.validation = { ...best.record.validation, confirmation: paired };
      if (paired.siblingOnly <= paired.controlOnly) {
        entry.outcome = `best candidate ${best.record.id} did not beat the re-roll on other fresh seeds (${describePaired(paired)}); not added`;
        progress(`${direction}: ${entry.outcome}`);
        continue;
      }
    }
    const id = `sibling-${direction}`;
    const config: HarnessConfig = {
      ...best.config,
      id,
      description: `Sibling of ${options.base.id} along ${direction}: ${best.record.edits.join(" -> ")}`,
    };
    siblings.push(
      createSibling(config, {
        direction,
        lineage: [...best.record.lineage, best.record.id],
        validation: best.record.validation,
      }),
    );
    entry.chosen = best.record.id;
    const { control, confirmation, regressions, successesTried } = best.record.validation;
    const confirmed = confirmation === undefined ? "" : `; confirmed: ${describePaired(confirmation)}`;
    entry.outcome = `added as ${id} (${describePaired(control as PairedRescues)}${confirmed}; regressions ${regressions}/${successesTried})`;
    progress(`${direction}: ${entry.outcome}`);
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
    report.properties = await measureOnFailures(options, pool, failures, taskOf, seed, modeDirections);
  }
  return { pool, report, baseTrajectories };
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

function scoreOf(validation: Sibling["validation"]): number {
  return validation.rescued - (validation.control?.controlRescued ?? 0) - validation.regressions;
}

function describePaired(paired: PairedRescues): string {
  return `rescued ${paired.rescued}/${paired.failuresTried} against the re-roll's ${paired.controlRescued}, ${paired.siblingOnly} vs ${paired.controlOnly} alone, p ${paired.pValue.toFixed(3)}`;
}

/** Why a candidate may not join the pool, or null when it may. */
function admissionRefusal(
  record: CandidateRecord,
  admission: { minScore: number; minRescues: number; controlPValue: number },
): string | null {
  const paired = record.validation.control as PairedRescues;
  if (record.score < admission.minScore)
    return `scored ${record.score} (< ${admission.minScore}: ${describePaired(paired)})`;
  if (paired.rescued < admission.minRescues) return `rescued ${paired.rescued} (< ${admission.minRescues})`;
  if (paired.pValue >= admission.controlPValue)
    return `did not beat the re-roll (${describePaired(paired)}; needs p < ${admission.controlPValue})`;
  return null;
}
