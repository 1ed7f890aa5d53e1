import type { ActionGrammarV1, GrammarStep, PolicyView, ToolCall } from "@hs/spec";
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
  /**
   * The label sequences that would make a harness call, read from the call alone, best first; the
   * grammar's `decisionsFor` returns the first one the view offers to its end. Absent: none.
   */
  labelsForCall?(call: ToolCall): readonly (readonly string[])[];
}

/** Whether `view` offers each of `labels` in turn and the last one finishes the action. */
export function offersDecisions(
  grammar: ActionGrammarV1,
  view: PolicyView,
  labels: readonly string[],
): boolean {
  for (let index = 0; index <= labels.length; index++) {
    const step = grammar.next(view, labels.slice(0, index));
    if (index === labels.length) return step.done;
    if (step.done || !step.decision.options.some((option) => option.label === labels[index])) return false;
  }
  return false;
}

/**
 * An action grammar that builds each action as staged decisions: every `next(view, chosen)` derives the
 * view's context and replays the chosen labels through `build` from the first decision.
 */
export function stagedGrammar<Context>(parts: StagedGrammarParts<Context>): ActionGrammarV1 {
  const grammar: ActionGrammarV1 = {
    specificationVersion: "v1",
    featureCount: parts.featureNames.length,
    featureNames: parts.featureNames,
    prior: parts.prior,
    next: (view, chosen) => parts.build(new DecisionWalk(chosen), parts.context(view)),
  };
  const { labelsForCall } = parts;
  if (labelsForCall === undefined) return grammar;
  return {
    ...grammar,
    decisionsFor: (view, call) =>
      labelsForCall(call).find((labels) => offersDecisions(grammar, view, labels)) ?? null,
  };
}
