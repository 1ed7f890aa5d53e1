import type { DecisionOption, GrammarStep } from "@hs/spec";
import { submitCommand } from "./commands.js";
import { ask, option } from "./decision-options.js";
import { type ActionKind, actionKinds, type FeatureName, grammarTuning } from "./features.js";
import { probeAvailable, probeFit, probeFoundFix, probesSinceShow, probesSpent } from "./probe-step.js";
import { probeVerdict, promising } from "./probe-verdict.js";
import { showTargets } from "./show-step.js";
import { traceAvailable, traceFit } from "./trace-step.js";
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

/** Edits the episode has undone (each a failed attempt). */
function revertedEdits(context: ViewContext): number {
  return context.read.edits.filter((edit) => edit.applied && edit.reverted).length;
}

/** Whether the latest live edit is a rewrite a probe found promising (its check is the probe). */
export function probedEdit(context: ViewContext): boolean {
  const edit = context.liveEdits.at(-1);
  if (edit === undefined) return false;
  const probe = context.read.probes.get(`${edit.file}:${edit.line}`);
  return probe !== undefined && promising(probeVerdict(context.read, probe, edit.replacement));
}

function editFit(context: ViewContext): number {
  if (revertedEdits(context) >= grammarTuning.maxFailedEdits) return 0;
  if (probeFoundFix(context) && context.liveEdits.length === 0) return 4;
  // while probing can still find a fix, a blind edit waits
  if (probeAvailable(context)) return 0;
  if (context.evidence === "failing") return -2;
  return context.read.shownRanges.size > 0 ? 1.6 : 0.4;
}

/**
 * Steps since the latest submission a check held back (the harness ran its calls after it), else since
 * the start: what the check showed is worked on before submitting is pressed for again.
 */
function stepsSinceHeldSubmission(context: ViewContext): number {
  const { steps } = context.read;
  const held = steps.findLastIndex(
    (step) => (step.command === submitCommand || step.command === "submit") && step.harness !== undefined,
  );
  return steps.length - (held + 1);
}

function submitFit(context: ViewContext): number {
  const pressure = Math.max(0, stepsSinceHeldSubmission(context) - grammarTuning.submitPressureSteps);
  // an edit the latest test run or traceback shows has not fixed the failure is reverted, not submitted
  if (context.evidence === "failing") return -2;
  if (context.testedAfterEdit && context.lastTest?.passed === true) return 3 + pressure;
  if (probedEdit(context)) return 4 + pressure;
  if (probesSpent(context) && context.liveEdits.length === 0) return 3 + pressure;
  if (revertedEdits(context) >= grammarTuning.maxFailedEdits && context.liveEdits.length === 0)
    return 3 + pressure;
  return -2 + pressure;
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
      return traceFit(context);
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
