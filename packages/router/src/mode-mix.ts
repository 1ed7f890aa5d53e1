import { classifyByRules, modesOf } from "@hs/failure-analysis";
import { genericConventions } from "@hs/harness";
import type { FailureConventions, ObservedTrajectory } from "@hs/spec";

/**
 * The failure-mode mix of a failed group: each failed trajectory weighs 1/|group|, split evenly over its
 * modes. Unlabelled failures are labelled by the rules of the given conventions first.
 */
export function modeMix(
  group: readonly ObservedTrajectory[],
  conventions: FailureConventions = genericConventions,
): Record<string, number> {
  const failed = group.filter((trajectory) => !trajectory.success);
  const mix: Record<string, number> = {};
  for (const trajectory of failed) {
    const labelled =
      trajectory.failureModes.length > 0
        ? modesOf(trajectory)
        : [...new Set(classifyByRules(trajectory, conventions).map((label) => label.mode))];
    const modes = labelled.length === 0 ? ["unlabelled"] : labelled;
    for (const mode of modes) mix[mode] = (mix[mode] ?? 0) + 1 / failed.length / modes.length;
  }
  return mix;
}

/** The mix as text, largest first. */
export function describeMix(mix: Readonly<Record<string, number>>): string {
  const entries = Object.entries(mix).sort((a, b) => b[1] - a[1]);
  return entries.length === 0
    ? "no failures"
    : entries.map(([mode, weight]) => `${mode} ${(weight * 100).toFixed(0)}%`).join(", ");
}
