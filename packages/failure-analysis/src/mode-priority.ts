import type { FailureLabel } from "@hs/spec";

/**
 * Labels sorted by a precedence list of modes: listed modes first, in the list's order, then the others
 * in the order they were found. The first label is the trajectory's primary mode.
 */
export function sortByPriority(
  labels: readonly FailureLabel[],
  priority: readonly string[] = [],
): FailureLabel[] {
  const rank = (mode: string) => {
    const index = priority.indexOf(mode);
    return index < 0 ? priority.length : index;
  };
  return labels
    .map((label, order) => ({ label, order }))
    .sort((a, b) => rank(a.label.mode) - rank(b.label.mode) || a.order - b.order)
    .map((entry) => entry.label);
}

/** The primary mode of labels already sorted by `sortByPriority` (undefined when there are none). */
export function primaryMode(labels: readonly FailureLabel[]): string | undefined {
  return labels[0]?.mode;
}
