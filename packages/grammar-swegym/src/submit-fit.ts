import { submitCommand } from "./commands.js";
import { grammarTuning } from "./features.js";
import { probesSpent } from "./probe-step.js";
import { probeVerdict, promising } from "./probe-verdict.js";
import type { ViewContext } from "./view-context.js";

/** Edits the episode has undone (each a failed attempt). */
export function revertedEdits(context: ViewContext): number {
  return context.read.edits.filter((edit) => edit.applied && edit.reverted).length;
}

/** Whether the latest live edit is a rewrite a probe found promising (its check is the probe). */
export function probedEdit(context: ViewContext): boolean {
  const edit = context.liveEdits.at(-1);
  if (edit === undefined) return false;
  const probe = context.read.probes.get(`${edit.file}:${edit.line}`);
  return probe !== undefined && promising(probeVerdict(context.read, probe, edit.replacement));
}

/**
 * Steps since the latest check: a submission a check held back (the harness ran its calls after it) or
 * the policy's own values trace, else since the start. What the check showed is worked on before
 * submitting is pressed for again.
 */
function stepsSinceCheck(context: ViewContext): number {
  const { steps, valuesTraceSteps } = context.read;
  const held = steps.findLastIndex(
    (step) => (step.command === submitCommand || step.command === "submit") && step.harness !== undefined,
  );
  return steps.length - (Math.max(held, ...valuesTraceSteps) + 1);
}

/**
 * The grammar's fit of `submit`: when the tests pass after an edit, a probe found the edit, probing ran
 * its course or the edits ran out; one point more a step from step `submitPressureSteps` on.
 */
export function submitFit(context: ViewContext): number {
  const pressure = Math.max(0, stepsSinceCheck(context) - grammarTuning.submitPressureSteps);
  // an edit the latest test run or traceback shows has not fixed the failure is reverted, not submitted
  if (context.evidence === "failing") return -2;
  if (context.testedAfterEdit && context.lastTest?.passed === true) return 3 + pressure;
  if (probedEdit(context)) return 4 + pressure;
  if (probesSpent(context) && context.liveEdits.length === 0) return 3 + pressure;
  if (revertedEdits(context) >= grammarTuning.maxFailedEdits && context.liveEdits.length === 0)
    return 3 + pressure;
  return -2 + pressure;
}
