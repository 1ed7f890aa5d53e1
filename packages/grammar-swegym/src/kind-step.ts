import type { DecisionOption, GrammarStep } from "@hs/spec";
import { ask, option } from "./decision-options.js";
import { type ActionKind, actionKinds, type FeatureName, grammarTuning } from "./features.js";
import { probeAvailable, probeFit, probeFoundFix, probesSinceShow } from "./probe-step.js";
import { showTargets } from "./show-step.js";
import { probedEdit, revertedEdits, submitFit } from "./submit-fit.js";
import { traceAvailable, traceFit, valuesTraceBeforeSubmit } from "./trace-step.js";
import type { ViewContext } from "./view-context.js";

/** Whether a kind has options in this view (submit, explore and test always do). */
export function kindAvailable(kind: ActionKind, context: ViewContext): boolean {
  const { read } = context;
  switch (kind) {
    case "search":
      return read.terms.identifiers.length > 0;
    case "show":
      return showTargets(context).length > 0;
    case "reproduce":
      return read.terms.expressions.length > 0 && context.packages.length > 0;
    case "probe":
      return probeAvailable(context);
    case "trace":
      return traceAvailable(context);
    case "edit":
      return context.pendingEdit === null && context.editLines().length > 0;
    case "revert":
      return context.liveEdits.length > 0;
    default:
      return true;
  }
}

function searchFit(context: ViewContext): number {
  const { read } = context;
  const unsearched = read.terms.identifiers.some((term) => !read.searched.has(term));
  if (!unsearched) return -2;
  if (read.searched.size === 0) return read.explored ? 1.5 : 0.5;
  return read.shownRanges.size === 0 ? 0.3 : 0;
}

function showFit(context: ViewContext): number {
  const fresh = showTargets(context).some((target) => target.fresh);
  if (context.read.shownRanges.size === 0) return fresh ? 1.8 : 0.6;
  if (probeAvailable(context) && probesSinceShow(context) >= grammarTuning.probesPerRegion) return 1.5;
  return fresh ? 0.3 : -0.5;
}

function editFit(context: ViewContext): number {
  if (revertedEdits(context) >= grammarTuning.maxFailedEdits) return 0;
  if (probeFoundFix(context) && context.liveEdits.length === 0) return 4;
  // while probing can still find a fix, a blind edit waits
  if (probeAvailable(context)) return 0;
  if (context.evidence === "failing") return -2;
  return context.read.shownRanges.size > 0 ? 1.6 : 0.4;
}

/** The grammar's heuristic fit of each kind to the view: the designer's order of work. */
export function kindFit(kind: ActionKind, context: ViewContext): number {
  const { read } = context;
  switch (kind) {
    case "explore":
      return read.explored || read.files.length > 0 ? -3 : 2;
    case "search":
      return searchFit(context);
    case "show":
      return showFit(context);
    case "reproduce":
      return read.reproduced.size === 0 && read.explored ? 0.3 : -1;
    case "probe":
      return probeFit(context);
    case "trace":
      // before the empty patch is submitted, the values trace comes one below the submit, pressure included
      return valuesTraceBeforeSubmit(context) ? submitFit(context) - 1 : traceFit(context);
    case "edit":
      return editFit(context);
    case "test":
      // every edit is tested (an untested one may loop forever under the grader)
      if (context.pendingEdit !== null) return probedEdit(context) ? -1 : 2.5;
      return read.tests.length === 0 && context.liveEdits.length === 0 ? 0.2 : -1;
    case "revert":
      return context.evidence === "failing" ? 3 : -4;
    case "submit":
      return submitFit(context);
  }
}

/** The option features of a kind that the evidence after an edit bears on (submit, revert). */
function evidenceValues(kind: ActionKind, context: ViewContext): Partial<Record<FeatureName, number>> {
  const failing = context.evidence === "failing" ? 1 : 0;
  if (kind === "submit")
    return {
      "submit-evidence-failing": failing,
      "submit-evidence-fixed": context.evidence === "fixed" ? 1 : 0,
    };
  if (kind === "revert") return { "revert-evidence-failing": failing };
  return {};
}

/** The first decision: which kind of action. */
export function kindStep(context: ViewContext): GrammarStep {
  const options: DecisionOption[] = actionKinds
    .filter((kind) => kindAvailable(kind, context))
    .map((kind) =>
      option(
        `kind:${kind}`,
        { [`kind-${kind}`]: 1, "option-fit": kindFit(kind, context), ...evidenceValues(kind, context) },
        context,
      ),
    );
  return ask("kind", options);
}
