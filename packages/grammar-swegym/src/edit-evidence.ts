import { rewriteKey } from "./commands.js";
import type { ObservedEdit, ReadView } from "./read-view.js";

/** What the latest evidence after an edit shows: the failure still there, the failure gone, or nothing yet. */
export type EditEvidence = "failing" | "fixed" | null;

/**
 * The verdict of the latest output after `edit` that tells whether it fixed the failure: a test run
 * (failing or passing) or a traceback. Outputs the harness showed (a check before a submit, a follow-up)
 * are read like the policy's own, so the verdict is the same whichever of them ran the tests.
 */
export function editEvidence(read: ReadView, edit: ObservedEdit | undefined): EditEvidence {
  if (edit === undefined) return null;
  const verdicts: { step: number; failing: boolean }[] = [];
  for (const run of read.tests) {
    if (run.step > edit.step && run.passed !== null) verdicts.push({ step: run.step, failing: !run.passed });
  }
  for (const location of read.locations) {
    if (location.source === "traceback" && location.step > edit.step)
      verdicts.push({ step: location.step, failing: true });
  }
  if (verdicts.length === 0) return null;
  const latest = Math.max(...verdicts.map((verdict) => verdict.step));
  // within one step a failure outweighs a pass (a passing run beside a traceback has not fixed it)
  return verdicts.some((verdict) => verdict.step === latest && verdict.failing) ? "failing" : "fixed";
}

/** Whether an applied edit of `file:line` to `text` (its `rewriteKey`) was later reverted: a refuted candidate. */
export function refutedRewrite(read: ReadView, file: string, line: number, text: string): boolean {
  return read.edits.some(
    (edit) =>
      edit.applied &&
      edit.reverted &&
      edit.file === file &&
      edit.line === line &&
      rewriteKey(edit.replacement) === text,
  );
}
