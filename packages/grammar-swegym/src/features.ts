import { namedFeatures } from "@hs/grammar-kit";
import { type RewriteKind, rewriteKinds } from "./line-rewrites.js";

/** Action kinds of the `kind` decision, in the order offered. */
export const actionKinds = [
  "explore",
  "search",
  "show",
  "reproduce",
  "trace",
  "probe",
  "test",
  "edit",
  "revert",
  "submit",
] as const;

/** An action kind. */
export type ActionKind = (typeof actionKinds)[number];

/** Names of the option features, in vector order (the grammar's `featureCount` is their number). */
export const featureNames = [
  // context of the view (the same on every option of a decision)
  "steps-taken",
  "files-known",
  "searches-made",
  "lines-shown",
  "edit-pending",
  "tested-after-edit",
  "last-test-failed",
  "last-output-error",
  "format-error",
  // the latest test run or traceback after the latest live edit (the policy's or a harness check's)
  "evidence-failing",
  "evidence-fixed",
  // which action kind (one-hot on the `kind` decision)
  ...actionKinds.map((kind) => `kind-${kind}` as const),
  // the kind options the evidence after an edit bears on
  "submit-evidence-failing",
  "submit-evidence-fixed",
  "revert-evidence-failing",
  // search terms
  "term-called",
  "term-position",
  "term-searched",
  // files and regions
  "file-in-traceback",
  "file-in-search",
  "file-named",
  "file-shown",
  "file-edited",
  "region-traceback",
  "region-search",
  "region-top",
  "region-next",
  "region-shown",
  "region-definition",
  "region-innermost",
  "region-named-definition",
  "region-import",
  "region-traced",
  "region-ranked",
  // lines to edit
  "line-in-traceback",
  "line-search-hit",
  "line-statement-words",
  "line-rewrites",
  "line-edited",
  "line-control",
  "line-raise",
  "line-just-shown",
  "line-in-named-function",
  "line-traceback-near",
  "line-probed",
  "line-probe-match",
  "line-statement-kind",
  "line-traced",
  "line-ranked",
  // rewrites (one-hot by operator kind)
  ...rewriteKinds.map((kind) => `rewrite-${kind}` as const),
  "rewrite-tried",
  "rewrite-statement-number",
  "rewrite-statement-kind",
  "rewrite-probe-match",
  "rewrite-probe-fixed-error",
  "rewrite-probe-broke",
  "rewrite-probe-same",
  // test targets
  "test-all",
  "test-file",
  "test-failing",
  // which trace: the statement's calls alone, their lines ranked against the repository's tests, or
  // with the module-level values they read
  "trace-ranked",
  "trace-values",
  // the grammar's heuristic fit of an option to the view, and where it stands in its decision
  "option-fit",
  "option-order",
  "bias",
] as const;

/** A feature name. */
export type FeatureName = (typeof featureNames)[number];

const features = namedFeatures(featureNames);

/** Position of each feature in the vector. */
export const featureIndex = features.index;

/** `base` (a full vector) with the named values written over it; the bias stays 1. */
export const featureVectorOver = features.over;

/** The feature of a rewrite kind. */
export function rewriteFeature(kind: RewriteKind): FeatureName {
  return `rewrite-${kind}`;
}

/**
 * The designer's prior: what a reader of the issue would do first. The kind decision follows the
 * grammar's `option-fit` (list the files, search the names, look at what a search or
 * traceback points at, edit a shown line, run the tests, submit once they pass after an edit, revert
 * an edit that broke them); lines a traceback or search names and lines that use the words
 * are edited first; comparison and off-by-one rewrites slightly before the others.
 */
export const priorWeights: Partial<Record<FeatureName, number>> = {
  "option-fit": 3,
  "option-order": -0.3,
  "term-called": 0.5,
  "term-position": -0.5,
  "term-searched": -3,
  "file-in-traceback": 1.5,
  "file-in-search": 1,
  "file-named": 0.5,
  "file-shown": -0.5,
  "region-traceback": 1.5,
  "region-search": 1,
  "region-shown": -5,
  "region-definition": 1,
  "region-innermost": 1.5,
  "region-named-definition": 2,
  "region-import": -3,
  "region-traced": 2,
  "region-ranked": 2,
  "line-in-traceback": 1.5,
  "line-search-hit": 0.5,
  "line-statement-words": 2,
  "line-rewrites": 0,
  "line-edited": -1.5,
  "line-control": 0.5,
  "line-raise": -1.5,
  "line-just-shown": 3,
  "line-in-named-function": 2,
  "line-traceback-near": 1,
  "rewrite-comparison": 0.6,
  "rewrite-off-by-one": 0.3,
  "rewrite-boolean": 0.3,
  "rewrite-arithmetic": 0.3,
  "rewrite-normalize": 0.5,
  "rewrite-identifier": -1.5,
  "rewrite-literal": -0.5,
  "rewrite-statement-number": 1,
  "rewrite-tried": -4,
  "rewrite-statement-kind": 2,
  "line-probed": -4,
  "line-probe-match": 9,
  "line-statement-kind": 1,
  "line-traced": 1,
  "line-ranked": 4,
  "rewrite-probe-match": 5,
  "rewrite-probe-fixed-error": 3,
  "rewrite-probe-broke": -4,
  "rewrite-probe-same": -2,
  "submit-evidence-failing": -3,
  "submit-evidence-fixed": 1,
  "revert-evidence-failing": 1,
  "test-all": 1.5,
  "test-failing": 0.2,
};

/** Weights (default `priorWeights`) as a vector in feature order. */
export function priorVector(weights = priorWeights): number[] {
  return features.weights(weights);
}

/** Hand-set limits and fits of the grammar; changing one changes the untrained policy's choices. */
export const grammarTuning = {
  /** Lines shown around a location. */
  regionRadius: 12,
  /** Lines shown after a definition's own line when a region is centred on it. */
  definitionLines: 40,
  /** Lines of a file's first page. */
  topLines: 60,
  /** Lines edited files offer as candidates, at most. */
  maxEditLines: 60,
  /** Files offered by `show`, at most. */
  maxFiles: 30,
  /** Test files offered by `test`, at most. */
  maxTestFiles: 8,
  /** Steps after which submitting is pressed for, one `option-fit` point a step (an untrained episode stays short). */
  submitPressureSteps: 11,
  /** Edits undone after failing tests, after which the prior submits instead of trying another. */
  maxFailedEdits: 3,
  /** Lines probed per episode, at most (a probe command tries up to five); then the prior stops probing. */
  maxProbes: 40,
  /** Lines either side of the chosen one that a probe also tries (those not probed yet). */
  probeWindow: 2,
  /** Probe commands after one shown region, after which the prior shows another region first. */
  probesPerRegion: 2,
  /** Steps over which `steps-taken` rises to 1. */
  stepsCap: 20,
} as const;
