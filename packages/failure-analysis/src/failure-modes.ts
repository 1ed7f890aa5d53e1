import { commonFailureModes, type FixDirection, fixDirections } from "@hs/spec";

/** A failure mode name (one of `commonFailureModes`, or a benchmark's own). */
export type FailureMode = string;

/**
 * Which fix directions are expected to repair each failure mode: the common ones and those the bundled
 * benchmarks' conventions label. Locality is measured against
 * this map: a sibling's rescue is "local" when the rescued failure carries a mode of its direction.
 */
export const defaultModeDirections: Readonly<Record<FailureMode, readonly FixDirection[]>> = {
  "budget-exhausted": ["budget"],
  "malformed-action": ["action-format", "error-recovery"],
  "unrecovered-tool-error": ["error-recovery"],
  "empty-result-misread": ["guidance", "verification", "error-recovery"],
  "unrecovered-empty-result": ["error-recovery"],
  "wrong-answer-format": ["action-format", "guidance"],
  "context-lost": ["context"],
  "premature-answer": ["verification", "guidance"],
  "unchecked-change": ["verification"],
  "wrong-target": ["guidance", "verification", "tool-exposure"],
  // benchmark-owned modes (each benchmark's `failureConventions.modeRules`); a mode names no benchmark
  "wrong-statement": ["guidance", "action-format"],
  // a value written differently and a wrong column are repaired by seeing the table's values (context)
  "value-mismatch": ["context", "tool-exposure", "guidance", "verification"],
  "changed-wrong-rows": ["verification", "guidance"],
  "wrong-column": ["context", "tool-exposure", "guidance"],
  "not-logged-in": ["error-recovery", "guidance"],
  "doc-not-read": ["guidance", "tool-exposure"],
  "stopped-paging": ["tool-exposure", "guidance"],
  "impossible-filter": ["verification", "guidance"],
  "wrong-argument": ["error-recovery", "guidance"],
  "completed-early": ["verification", "guidance"],
  "edit-broke-file": ["error-recovery", "verification"],
  "edited-unnamed-line": ["context", "guidance"],
  "never-ran-failing-tests": ["tool-exposure", "guidance"],
  // a wrong edit submitted: a check before the submit repairs it, or seeing where the fault is (context)
  "submitted-failing-tests": ["verification", "context"],
  "unlocated-failure": ["context", "tool-exposure"],
  // nothing was changed: the region of the bug was never found, which an observation of it repairs, or
  // a reply to the search that found nothing (a fruitless probe) that says where else to look
  "empty-submission": ["verification", "guidance", "context", "error-recovery"],
};

/** The failure modes a direction is expected to repair under a mode -> directions map. */
export function modesOfDirection(
  direction: FixDirection,
  modeDirections: Readonly<Record<FailureMode, readonly FixDirection[]>> = defaultModeDirections,
): FailureMode[] {
  return Object.entries(modeDirections)
    .filter(([, directions]) => directions.includes(direction))
    .map(([mode]) => mode);
}

/** Whether a value names a fix direction. */
export function isFixDirection(value: string): value is FixDirection {
  return (fixDirections as readonly string[]).includes(value);
}

/** The common failure modes, re-exported for convenience. */
export const failureModes: readonly FailureMode[] = commonFailureModes;
