import type { FailureMode } from "@hs/failure-analysis";
import type { Random } from "@hs/harness";
import type { EvolutionLibrary, FixDirection, HarnessConfig, Sibling, Task, Trajectory } from "@hs/spec";
import type { EvolveOptions, FirstGeneration } from "./evolve.js";
import type { MutationOperator } from "./operators.js";
import type { ProposalLogEntry } from "./proposer.js";
import type { createRerollControl } from "./reroll-control.js";

/** What every direction of one `evolvePool` run shares. */
export interface EvolutionRun {
  /** The options of the run. */
  options: EvolveOptions;
  /** The run's one random stream (its order of use decides the outcome). */
  random: Random;
  /** Progress lines. */
  progress: (message: string) => void;
  /** Texts and macros the operators draw from. */
  library: EvolutionLibrary;
  /** The mutation operators. */
  operators: readonly MutationOperator[];
  /** Tool names of the benchmark's environment. */
  toolNames: string[];
  /** Which directions repair which modes. */
  modeDirections: Readonly<Record<FailureMode, readonly FixDirection[]>>;
  /** The task of a trajectory. */
  taskOf: (trajectory: Trajectory) => Task;
  /** Every proposal of the proposer, in order. */
  proposals: ProposalLogEntry[];
  /** The labelled base failures. */
  failures: readonly Trajectory[];
  /** The re-roll control over the base failures. */
  reroll: ReturnType<typeof createRerollControl>;
  /** A candidate's validation on a direction's failures and on the sample of base successes. */
  validate(config: HarnessConfig, directionFailures: readonly Trajectory[]): Promise<Sibling["validation"]>;
  /** Generations, children per parent, parents kept, and how the first generation is made. */
  search: {
    generations: number;
    perParent: number;
    beamWidth: number;
    firstGeneration: FirstGeneration;
    firstGenerationCap: number;
  };
  /** What a candidate must reach to join the pool. */
  admission: Admission;
}

/** The thresholds of admission to the pool. */
export interface Admission {
  /** Least `rescued - controlRescued - regressions`. */
  minScore: number;
  /** Least rescued base failures. */
  minRescues: number;
  /** The sign test against the control must give a p-value below this. */
  controlPValue: number;
}
