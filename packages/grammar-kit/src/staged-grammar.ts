import type { ActionGrammarV1, GrammarStep, PolicyView } from "@hs/spec";
import { DecisionWalk } from "./decision-walk.js";

/** What a staged grammar is made of. */
export interface StagedGrammarParts<Context> {
  /** Names of the option features, in vector order (their number is the grammar's `featureCount`). */
  featureNames: readonly string[];
  /** The designer's prior: weights of a linear score over the features, in feature order. */
  prior: readonly number[];
  /** What every decision of one view reads, derived from the rendered view alone. */
  context(view: PolicyView): Context;
  /** The next decision or the finished action, walking the labels chosen so far. */
  build(walk: DecisionWalk, context: Context): GrammarStep;
}

/**
 * An action grammar that builds each action as staged decisions: every `next(view, chosen)` derives the
 * view's context and replays the chosen labels through `build` from the first decision.
 */
export function stagedGrammar<Context>(parts: StagedGrammarParts<Context>): ActionGrammarV1 {
  return {
    specificationVersion: "v1",
    featureCount: parts.featureNames.length,
    featureNames: parts.featureNames,
    prior: parts.prior,
    next: (view, chosen) => parts.build(new DecisionWalk(chosen), parts.context(view)),
  };
}
