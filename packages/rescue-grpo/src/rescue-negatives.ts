/**
 * Where a rescued group's failures come from: `sibling`, the rescue's own failed rollouts (plus one base
 * failure with `keepBaseNegative`); `base`, every failure of the all-fail base group, beside the rescue's
 * successes only, so every failure the group trains was made under the base harness.
 */
export const rescueNegatives = ["sibling", "base"] as const;
/** Where a rescued group's failures come from (`rescueNegatives`). */
export type RescueNegatives = (typeof rescueNegatives)[number];
