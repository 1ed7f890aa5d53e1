import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { readJsonl } from "@hs/harness";
import { type BehaviourFrequencyFile, behaviourFrequencyFileSchema, profileSetSchema } from "@hs/spec";
import { z } from "zod";

/** One line of a training run's `metrics.jsonl`, as far as the report reads it. */
export const stepMetricsSchema = z
  .object({
    /** 0-based optimisation step. */
    step: z.number().int().nonnegative(),
    /** Share of drawn base groups with reward variance. */
    signalShare: z.number(),
    /** Rollouts spent so far. */
    rolloutsTotal: z.number(),
    /** Rollouts under the base harness this step. */
    rolloutsBase: z.number(),
    /** Rollouts spent by rescue this step. */
    rolloutsRescue: z.number(),
    /** Success rate of this step's base rollouts. */
    success: z.number(),
    /** Mean reward of this step's base rollouts. */
    reward: z.number(),
    /** Rescue counters (`attempts`, `successes`, `routerQueries`, `routerHits`, `sibling:ID:...`). */
    rescue: z.record(z.string(), z.number()).default({}),
  })
  .passthrough();
/** One line of a training run's metrics. */
export type StepMetricsRow = z.infer<typeof stepMetricsSchema>;

/** What `hs quickstart` writes to `results.json` (the keys the report reads). */
export const experimentResultsSchema = z
  .object({
    /** Wall time of the whole job in seconds. */
    wall_seconds: z.number(),
    /** Held-out success under the base harness, one number per seed, by method. */
    heldout: z.record(z.string(), z.array(z.number())),
    /** Rank-1 inference: base-harness and Rank-1 success per seed. */
    rank1: z.object({ base: z.array(z.number()), rank1: z.array(z.number()) }).optional(),
    /** Share of groups with signal in the first quarter of training, per seed, by method. */
    signal_share_first_quarter: z.record(z.string(), z.array(z.number())).optional(),
    /** Seeds, in the order of the per-seed lists. */
    seeds: z.array(z.number()).optional(),
    /** Rollouts spent per seed, by method. */
    rollouts: z.record(z.string(), z.array(z.number())).optional(),
  })
  .passthrough();
/** What `hs quickstart` writes to `results.json`. */
export type ExperimentResults = z.infer<typeof experimentResultsSchema>;

/** One training run (a method and a seed) of an experiment. */
export interface TrainingRun {
  /** Method name (`grpo`, `dapo`, `harness-s`...). */
  method: string;
  /** Seed. */
  seed: number;
  /** Its metrics, one row per step. */
  metrics: StepMetricsRow[];
  /** Profiles re-anchored during the run (`profiles.json` beside its metrics), when there are any. */
  profiles: z.infer<typeof profileSetSchema> | null;
}

/** Everything the report reads from one experiment directory. */
export interface Experiment {
  /** The directory. */
  directory: string;
  /** `results.json`, when present. */
  results: ExperimentResults | null;
  /** Every training run under `runs/METHOD/seed-N/`. */
  runs: TrainingRun[];
  /** `profiles.json`, when present. */
  profiles: z.infer<typeof profileSetSchema> | null;
  /** Rescue properties from `hs evolve` (rescue matrix, locality, complementarity), when present. */
  evolution: Record<string, unknown> | null;
  /** `behaviour-frequency.json` (behaviour frequency on held-out tasks), when present. */
  behaviours: BehaviourFrequencyFile | null;
  /** Problems met while reading (each names its file), shown in the report. */
  problems: string[];
}

async function readJson<T>(file: string, schema: z.ZodType<T>, problems: string[]): Promise<T | null> {
  if (!existsSync(file)) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(await readFile(file, "utf8")));
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    problems.push(`${file}: field "${issue?.path.join(".")}": ${issue?.message}`);
  } catch (error) {
    problems.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return null;
}

/**
 * The rescue properties of `hs evolve` (`pool.evolution.json`, or `evolution.json`): the report's
 * `properties` when present, else the file itself.
 */
async function readEvolution(directory: string, problems: string[]): Promise<Record<string, unknown> | null> {
  for (const name of ["pool.evolution.json", "evolution.json"]) {
    const value = await readJson(join(directory, name), z.record(z.string(), z.unknown()), problems);
    if (value === null) continue;
    const properties = value.properties;
    return properties !== null && typeof properties === "object"
      ? (properties as Record<string, unknown>)
      : value;
  }
  return null;
}

/** Reads an experiment directory; missing parts are null, unreadable parts become problems. */
export async function readExperiment(directory: string): Promise<Experiment> {
  const problems: string[] = [];
  const runs: TrainingRun[] = [];
  const runsDirectory = join(directory, "runs");
  if (existsSync(runsDirectory)) {
    for (const method of (await readdir(runsDirectory)).sort()) {
      for (const seedDirectory of (await readdir(join(runsDirectory, method))).sort()) {
        const seed = Number(/^seed-(-?\d+)$/.exec(seedDirectory)?.[1]);
        const file = join(runsDirectory, method, seedDirectory, "metrics.jsonl");
        if (!Number.isInteger(seed) || !existsSync(file)) continue;
        const { records, problems: lineProblems } = await readJsonl(file, stepMetricsSchema);
        problems.push(...lineProblems.map((problem) => problem.message));
        const profiles = await readJson(
          join(runsDirectory, method, seedDirectory, "profiles.json"),
          profileSetSchema,
          problems,
        );
        runs.push({ method, seed, metrics: records, profiles });
      }
    }
  }
  return {
    directory,
    results: await readJson(join(directory, "results.json"), experimentResultsSchema, problems),
    runs,
    profiles: await readJson(join(directory, "profiles.json"), profileSetSchema, problems),
    evolution: await readEvolution(directory, problems),
    behaviours: await readJson(
      join(directory, "behaviour-frequency.json"),
      behaviourFrequencyFileSchema,
      problems,
    ),
    problems,
  };
}

/** A short label for an experiment directory. */
export function experimentLabel(experiment: Experiment): string {
  return basename(experiment.directory);
}
