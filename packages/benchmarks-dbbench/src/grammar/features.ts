/** Names of the option features, in vector order (the grammar's `featureCount` is their number). */
export const featureNames = [
  // context of the view
  "cue-insert",
  "cue-update",
  "cue-count",
  "cue-average",
  "cue-sum",
  "cue-max",
  "cue-min",
  "cue-compare",
  "actions-taken",
  "last-error",
  "last-empty",
  "has-result",
  "did-modify",
  "did-explore",
  "guidance-explore",
  "is-question",
  // which category option (one-hot within the decision's fixed list)
  "category-0",
  "category-1",
  "category-2",
  "category-3",
  "category-4",
  "category-5",
  "category-6",
  "category-7",
  // column options
  "column-overlap",
  "column-exact",
  "column-position",
  "column-first",
  "column-used",
  "column-numeric",
  "column-value-seen",
  "column-seen",
  "column-cue",
  "is-column",
  // value options
  "value-length",
  "value-quoted",
  "value-number",
  "value-from-cell",
  "value-in-column-cells",
  "value-in-any-cells",
  "value-after-header",
  "value-overlaps-header",
  "value-case-variant",
  "value-position",
  "value-used",
  "value-proper",
  "is-value",
  "value-list",
  // result options (answers)
  "result-recency",
  "result-rows",
  "result-single-cell",
  "result-aggregate",
  "bias",
] as const;

/** A feature name. */
export type FeatureName = (typeof featureNames)[number];

const featureIndex = new Map<string, number>(featureNames.map((name, index) => [name, index]));

/** Builds a feature vector from named values (the rest are 0). */
export function featureVector(values: Partial<Record<FeatureName, number>>): number[] {
  const vector = new Array<number>(featureNames.length).fill(0);
  for (const [name, value] of Object.entries(values)) {
    const index = featureIndex.get(name);
    if (index !== undefined && value !== undefined) vector[index] = value;
  }
  vector[featureNames.length - 1] = 1;
  return vector;
}
