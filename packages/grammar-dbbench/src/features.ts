import { namedFeatures } from "@hs/grammar-kit";
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
  "column-near-value",
  "column-after-wh",
  "column-failed",
  // on a filter column: its seen cells hold a question value that matched nothing in the column it was
  // tried on (`Venue` after `WHERE Home team score = 'Victoria Park'` returned [])
  "column-holds-failed-value",
  "column-key",
  // how the question uses the column against what the decision needs (+1 a new value's column in SET,
  // a filter's column in WHERE; -1 the other way round): `set X to V` versus `where X is V`
  "column-role-fit",
  // on the option that ends an UPDATE's SET list: as many columns are set as the question states new values
  "set-complete",
  // on the option that adds a condition: the question ties a value to a column no condition uses yet
  "conditions-remaining",
  // on the whole-table preview: the question names a value (a name, number or quoted text) without the
  // column that holds it, so the rows must show where it is
  "explore-unaligned",
  // on a column to preview before an UPDATE: the question gives that column its new value, so its old
  // values say nothing about which rows to change
  "explore-set-column",
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
  "value-maximal",
  "value-bounded",
  "value-near-column",
  "value-before-column",
  "value-in-order",
  "value-next-in-order",
  "value-overlaps-table",
  "value-type-fit",
  "value-shape-seen",
  "value-failed",
  // this column with this value is a condition of a query that already failed or returned nothing
  "condition-failed",
  "value-mentions-other-column",
  // the same for a value: after `to`/`as`/`be` (a new value) versus after `where`/`for`/`of`/`is` (a filter)
  "value-role-fit",
  // the value is a whole name or date as written (`Grand Prix of Atlanta`), or only a part of one
  "value-entity",
  "value-entity-part",
  // share of the value's words that are words of the request itself (update, set, column, table, equals...)
  "value-request-words",
  // the question ties this value to this column (`club 'FK Trakai'`, `'San Diego' for 'Location'`), in
  // the one-to-one assignment of values to columns read from the whole question
  "value-aligned",
  // the assignment ties this value to another column
  "value-aligned-other",
  // the assignment gives this column a value (a condition, a SET or a WHERE column)
  "column-aligned",
  // on a condition column: the query already has a condition on it
  "column-conditioned",
  // a cell seen in a result whose words the question uses (`Soybean production` for "soybean production
  // statistics"): share of the cell's content words in the question
  "cell-in-question",
  // result options (answers)
  "result-recency",
  "result-rows",
  "result-single-cell",
  "result-aggregate",
  // the result is a preview or a column's distinct values, and a real query has rows too
  "result-is-preview",
  // on the answer option: how many actions the episode has taken (0 up to two, 1 from six)
  "answer-pressure",
  // the grammar's heuristic fit of a categorical option to the view (e.g. COUNT after "how many")
  "option-fit",
  // where the option stands in its decision (0 first, 1 last): the prior's explicit tie-break
  "option-order",
  // guidance the view shows (hints, tool-error suffixes, a verification check); 0 when it shows none
  "guide-explore",
  "guide-query-first",
  "guide-count-star",
  "guide-modify-answer",
  "guide-as-returned",
  "guide-fix-error",
  "guide-check-confirm",
  "guide-check-revise",
  "guide-roles",
  "guide-whole-names",
  // behaviours a sibling induces, read from the view alone, so they have the same value whatever harness
  // shows it (a rescued trajectory's decision then moves the same weight under the base harness):
  // on kind:explore, the last query returned [] and filtered on a column whose values no result has shown
  "explore-after-empty",
  // on an explore target: that column is one such column
  "explore-failed-column",
  // on kind:explore: the last UPDATE has not been read back yet (an explore then reads its rows back)
  "read-back-unchecked",
  // on kind:explore: no statement has filtered yet and a column the question ties a filter value to has
  // values no result has shown (look at the values before the first WHERE)
  "explore-before-filter",
  "bias",
] as const;

/** A feature name. */
export type FeatureName = (typeof featureNames)[number];

const features = namedFeatures(featureNames);

/** Position of each feature in the vector. */
export const featureIndex = features.index;

/** `base` (a full vector) with the named values written over it; the bias stays 1. */
export const featureVectorOver = features.over;

/** Builds a feature vector from named values (the rest are 0). */
export const featureVector = features.vector;

/**
 * The grammar's prior: initial weights of a linear score over the features, written by hand from
 * what a reader of the prompt would try first (a header named in the question, a value right after
 * it, a cell seen in that column, the option that fits the question's wording). Training starts here
 * and may move anywhere; `hs eval --policy embedded` is this prior with a random network beside it.
 * The alignment features (`value-aligned`, `value-aligned-other`, `column-aligned`: the column the
 * question ties a value to) have no prior weight: GRPO on standard-a learns that rule, and what it
 * learns holds on dev (see the rescue-grpo README).
 */
export const priorWeights: Partial<Record<FeatureName, number>> = {
  "option-fit": 3,
  // earlier options win ties (the question's order, the table's column order, the fixed category
  // order), by a margin that small weight noise cannot flip; without it, options whose features differ
  // only in zero-weight features tie exactly and any update reorders them at random
  "option-order": -0.3,
  "column-overlap": 2,
  "column-exact": 1.5,
  "column-used": -2.5,
  "column-value-seen": 1.5,
  "column-cue": 1,
  "column-near-value": 2.5,
  "column-after-wh": 1.5,
  "column-failed": -2,
  "column-holds-failed-value": 3,
  "value-near-column": 4,
  "value-before-column": 3.5,
  "value-maximal": 2.5,
  "value-bounded": 1,
  "value-in-column-cells": 2.5,
  "value-in-any-cells": 0.5,
  "value-shape-seen": 0.5,
  "value-type-fit": 1,
  "value-overlaps-header": -2.5,
  "value-mentions-other-column": -2,
  "value-overlaps-table": -4,
  "value-in-order": 1,
  "value-next-in-order": 3,
  "value-case-variant": -2,
  "value-used": -4,
  "value-failed": -2,
  "condition-failed": -6,
  "value-length": -2.5,
  "value-quoted": 1.5,
  "value-from-cell": -1,
  "value-proper": 1.5,
  "column-role-fit": 2,
  "set-complete": 3,
  "conditions-remaining": 2.5,
  "explore-unaligned": 2,
  "explore-set-column": -5,
  "answer-pressure": 3,
  "value-role-fit": 1.5,
  "value-entity": 1.5,
  "value-entity-part": -1.5,
  "value-request-words": -3,
  "column-conditioned": -5,
  "cell-in-question": 3,
  "result-recency": 2,
  "result-aggregate": 0.5,
  "result-is-preview": -4,
  // follow what the view says, as an instruction-following reader would; each is 0 without guidance
  "guide-explore": 3,
  "guide-query-first": 2,
  "guide-count-star": 8,
  "guide-modify-answer": 2,
  "guide-as-returned": 1,
  "guide-fix-error": 2,
  "guide-check-confirm": 1,
  "guide-check-revise": 3,
  "guide-roles": 3,
  "guide-whole-names": 3,
};

/**
 * The hand-written alignment rule the prior leaves to training; `priorWeights` plus these is the full
 * prior of earlier versions (untrained dev 37.0% against 25.4%).
 */
export const alignmentWeights: Partial<Record<FeatureName, number>> = {
  "value-aligned": 3,
  "value-aligned-other": -2,
  "column-aligned": 1.5,
};

/** Weights (default `priorWeights`) as a vector in feature order. */
export function priorVector(weights = priorWeights): number[] {
  return features.weights(weights);
}

/**
 * The grammar's hand-set tuning constants, beside the prior they work with: the `option-fit` each
 * decision gives its options before any weight (a cue fit of 1 is the strongest), and the limits of
 * what the grammar offers. Changing one changes the untrained policy's choices.
 */
export const grammarTuning = {
  /** Longest question span offered as a value, in tokens (the grammar's default `maxSpanTokens`). */
  maxSpanTokens: 12,
  /** Conditions a query may have. */
  maxConditions: 3,
  /** SET columns an UPDATE may have. */
  maxSetColumns: 4,
  /** Seen cells offered as values of one slot. */
  maxCells: 200,
  /** Longest seen cell offered as a value, in characters. */
  maxCellLength: 120,
  /** Questions whose derived context is cached before the cache starts over. */
  questionCacheSize: 256,
  /** Rows of an explore preview (`SELECT * ... LIMIT`). */
  previewRows: 50,
  /** Rows of an explore of one column's distinct values. */
  distinctRows: 100,
  /** `kind` fit of explore when the question has not looked at the data yet (or an UPDATE must look first). */
  exploreFirstFit: 1.5,
  /** `kind` fit of query after the last query failed. */
  queryAfterErrorFit: 0.5,
  /** `aggregate` fit of MAX/MIN per superlative cue. */
  extremeAggregateFit: 0.4,
  /** `condition-first` fit of `add` when a superlative question names no value. */
  extremeOnlyConditionFit: 0.3,
  /** `condition-more` fit of `add` for a second or third condition. */
  moreConditionFit: 0.2,
  /** `condition-operator` fit of LIKE. */
  likeOperatorFit: 0.2,
  /** `condition-operator` fit of IN. */
  inOperatorFit: 0.3,
  /** `condition-operator` fit of `<`/`>` when the question words a comparison. */
  comparisonWordFit: 0.8,
  /** `condition-operator` fit of the comparison the question states before the value. */
  statedComparisonFit: 1.5,
  /** `order` fit of a text ORDER BY per superlative cue. */
  textOrderFit: 0.6,
  /** `order` fit of a numeric ORDER BY per superlative cue. */
  numberOrderFit: 0.8,
  /** `answer-format` fit of `first` and `column` (`all` has 1). */
  partialAnswerFit: 0.3,
  /** Share of numeric cells above which a column takes numbers. */
  numericColumnShare: 0.7,
  /** Share of numeric cells below which a column takes text. */
  textColumnShare: 0.3,
  /** Type fit of the other kind of value for a column known only by its header. */
  headerTypeMismatch: 0.5,
  /** Weight of a value before a column mention against one after it (`column-near-value`). */
  valueBeforeColumn: 0.8,
  /** Least `column-overlap` of a column the question mentions. */
  mentionedColumnOverlap: 0.5,
  /** Actions after which `actions-taken` stays at its cap (scaled by half of it). */
  actionsTakenCap: 10,
  /** Actions beyond two over which `answer-pressure` rises to 1. */
  answerPressureActions: 4,
  /** Result rows at which `result-rows` reaches 1. */
  resultRowsCap: 20,
} as const;
