import type { FailureLabel } from "@hs/spec";

/** A label of the rule classifier (source `rules`), with the step of its evidence when there is one. */
export function ruleLabel(mode: string, evidence: string, step: number | undefined): FailureLabel {
  return { mode, evidence, source: "rules", ...(step === undefined ? {} : { step }) };
}
