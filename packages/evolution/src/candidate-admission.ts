import { createSibling } from "@hs/harness";
import type { FixDirection, HarnessConfig, Sibling } from "@hs/spec";
import type { Admission, EvolutionRun } from "./evolution-run.js";
import type { CandidateRecord, EvolutionReport } from "./evolve.js";
import type { PairedRescues } from "./reroll-control.js";

/** A candidate harness with its record. */
export interface Candidate {
  /** The candidate's config. */
  config: HarnessConfig;
  /** What was measured of it. */
  record: CandidateRecord;
}

/** rescued - controlRescued - regressions. */
export function scoreOf(validation: Sibling["validation"]): number {
  return validation.rescued - (validation.control?.controlRescued ?? 0) - validation.regressions;
}

function describePaired(paired: PairedRescues): string {
  return `rescued ${paired.rescued}/${paired.failuresTried} against the re-roll's ${paired.controlRescued}, ${paired.siblingOnly} vs ${paired.controlOnly} alone, p ${paired.pValue.toFixed(3)}`;
}

/** Why a candidate may not join the pool, or null when it may. */
function admissionRefusal(record: CandidateRecord, admission: Admission): string | null {
  const paired = record.validation.control as PairedRescues;
  if (record.score < admission.minScore)
    return `scored ${record.score} (< ${admission.minScore}: ${describePaired(paired)})`;
  if (paired.rescued < admission.minRescues) return `rescued ${paired.rescued} (< ${admission.minRescues})`;
  if (paired.pValue >= admission.controlPValue)
    return `did not beat the re-roll (${describePaired(paired)}; needs p < ${admission.controlPValue})`;
  return null;
}

/**
 * The best candidate of a direction as a sibling, when it passes admission and (unless turned off)
 * beats the re-roll again on other fresh seeds; else null. The outcome is written on the entry.
 */
export async function admitBest(
  run: EvolutionRun,
  direction: FixDirection,
  best: Candidate,
  directionFailures: readonly EvolutionRun["failures"][number][],
  entry: EvolutionReport["directions"][number],
): Promise<Sibling | null> {
  const { options, progress } = run;
  const refusal = admissionRefusal(best.record, run.admission);
  if (refusal !== null) {
    entry.outcome = `best candidate ${best.record.id} ${refusal}; not added`;
    progress(`${direction}: ${entry.outcome}`);
    return null;
  }
  if (options.confirm !== false) {
    const { paired } = await run.reroll.paired(best.config, directionFailures, "confirmation");
    best.record.validation = { ...best.record.validation, confirmation: paired };
    if (paired.siblingOnly <= paired.controlOnly) {
      entry.outcome = `best candidate ${best.record.id} did not beat the re-roll on other fresh seeds (${describePaired(paired)}); not added`;
      progress(`${direction}: ${entry.outcome}`);
      return null;
    }
  }
  const id = `sibling-${direction}`;
  const config: HarnessConfig = {
    ...best.config,
    id,
    description: `Sibling of ${options.base.id} along ${direction}: ${best.record.edits.join(" -> ")}`,
  };
  const sibling = createSibling(config, {
    direction,
    lineage: [...best.record.lineage, best.record.id],
    validation: best.record.validation,
  });
  entry.chosen = best.record.id;
  const { control, confirmation, regressions, successesTried } = best.record.validation;
  const confirmed = confirmation === undefined ? "" : `; confirmed: ${describePaired(confirmation)}`;
  entry.outcome = `added as ${id} (${describePaired(control as PairedRescues)}${confirmed}; regressions ${regressions}/${successesTried})`;
  progress(`${direction}: ${entry.outcome}`);
  return sibling;
}
