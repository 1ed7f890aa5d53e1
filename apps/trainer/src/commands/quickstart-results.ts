import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { readJsonl } from "@hs/harness";
import { stepMetricsSchema } from "@hs/report";
import { z } from "zod";
import type { EvalJob, QuickstartSettings, quickstartPlan } from "./quickstart.js";

const evalOutputSchema = z
  .object({ success: z.number(), metrics: z.record(z.string(), z.number()).default({}) })
  .passthrough();

const mean = (values: readonly number[]) =>
  values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

/** Share of groups with signal over the first quarter of a run's rollout budget. */
async function signalShareFirstQuarter(runDirectory: string, budget: number): Promise<number> {
  const { records } = await readJsonl(join(runDirectory, "metrics.jsonl"), stepMetricsSchema);
  const early = records.filter((row) => row.rolloutsTotal <= budget / 4);
  return mean((early.length > 0 ? early : records.slice(0, 1)).map((row) => row.signalShare));
}

/** Whether an evaluation's kept output is whole (a cut or foreign file is run again). */
export async function isCompleteEvaluation(file: string): Promise<boolean> {
  if (!existsSync(file)) return false;
  try {
    return evalOutputSchema.safeParse(JSON.parse(await readFile(file, "utf8"))).success;
  } catch {
    return false;
  }
}

async function readEvaluation(job: EvalJob): Promise<z.infer<typeof evalOutputSchema>> {
  const text = await readFile(job.output, "utf8");
  const parsed = evalOutputSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${job.output}: not the JSON of hs eval (${parsed.error.message})`);
  return parsed.data;
}

function append<T>(record: Record<string, T[]>, key: string, value: T): void {
  record[key] = [...(record[key] ?? []), value];
}

type Evaluated = { job: EvalJob; success: number; metrics: Record<string, number> };

/** Per split, per method, one value per seed (in seed order). */
function bySplitAndMethod<T>(
  evaluated: readonly Evaluated[],
  value: (entry: Evaluated) => T,
): Record<string, Record<string, T[]>> {
  const table: Record<string, Record<string, T[]>> = {};
  const sorted = [...evaluated].sort((first, second) => first.job.seed - second.job.seed);
  for (const entry of sorted) {
    const split = table[entry.job.split] ?? {};
    append(split, entry.job.method, value(entry));
    table[entry.job.split] = split;
  }
  return table;
}

async function trainingFigures(plan: ReturnType<typeof quickstartPlan>, settings: QuickstartSettings) {
  const signal: Record<string, number[]> = {};
  const rollouts: Record<string, number[]> = {};
  const checkpoints: Record<string, string[]> = {};
  for (const method of settings.methods) {
    for (const seed of settings.seeds) {
      const directory = plan.run(method, seed);
      const { records } = await readJsonl(join(directory, "metrics.jsonl"), stepMetricsSchema);
      append(signal, method, await signalShareFirstQuarter(directory, settings.budget));
      append(rollouts, method, records.at(-1)?.rolloutsTotal ?? 0);
      append(checkpoints, method, join(directory, "final"));
    }
  }
  return { signal, rollouts, checkpoints };
}

/**
 * `results.json` of the main job: held-out success per split, method and seed (`heldout` is the
 * first held-out split, which the report reads), every benchmark metric, the untrained policy,
 * Rank-1, and the training figures.
 */
export async function collectResults(
  plan: ReturnType<typeof quickstartPlan>,
  settings: QuickstartSettings,
  wallSeconds: number,
) {
  const read = async (jobs: readonly EvalJob[]) =>
    Promise.all(jobs.map(async (job) => ({ job, ...(await readEvaluation(job)) })));
  const trained = await read(plan.evaluate);
  const untrained = bySplitAndMethod(await read(plan.untrained), (entry) => entry.success);
  const rankOne = bySplitAndMethod(await read(plan.rankOne), (entry) => entry.success);
  const heldoutBySplit = bySplitAndMethod(trained, (entry) => entry.success);
  const rank1BySplit = Object.fromEntries(
    Object.entries(rankOne).map(([split, methods]) => [
      split,
      { base: heldoutBySplit[split]?.["harness-s"] ?? [], rank1: methods["harness-s"] ?? [] },
    ]),
  );
  const first = settings.heldoutSplits[0] ?? "";
  const training = await trainingFigures(plan, settings);
  return {
    wall_seconds: wallSeconds,
    seeds: settings.seeds,
    heldout_splits: settings.heldoutSplits,
    heldout: heldoutBySplit[first] ?? {},
    heldout_by_split: heldoutBySplit,
    metrics_by_split: bySplitAndMethod(trained, (entry) => entry.metrics),
    untrained_by_split: Object.fromEntries(
      Object.entries(untrained).map(([split, methods]) => [split, methods.untrained ?? []]),
    ),
    ...(plan.rankOne.length === 0 ? {} : { rank1: rank1BySplit[first], rank1_by_split: rank1BySplit }),
    signal_share_first_quarter: training.signal,
    rollouts: training.rollouts,
    checkpoints: training.checkpoints,
    settings,
  };
}
