import { namedFeatures } from "@hs/grammar-kit";
/**
 * Names of the option features, in vector order. Every option of every decision gets a vector of this
 * length; a feature that does not apply to an option is 0.
 */
export const featureNames = [
  "bias",
  "kind:apps-unseen",
  "kind:apis-needed",
  "kind:doc-needed",
  "kind:passwords-unseen",
  "kind:login-needed",
  "kind:page-available",
  "kind:call-available",
  "kind:each-available",
  "kind:complete-question-ready",
  "kind:complete-change-ready",
  "kind:complete-late",
  "kind:after-failure",
  "kind:repeats-last",
  "kind:failed-before",
  "app:relevance",
  "app:fresh",
  "api:relevance",
  "api:fresh",
  "api:lists",
  "api:changes",
  "api:creates",
  "username:email",
  "arg:omit",
  "arg:token",
  "arg:item-field",
  "arg:instruction",
  "arg:quoted",
  "arg:seen",
  "arg:choice-echoed",
  "arg:name-echoed",
  "list:recent",
  "list:relevance",
  "cond:all",
  "cond:instruction",
  "cond:keeps-some",
  "cond:keeps-none",
  "cond:none",
  "answer:none-for-change",
  "answer:none-for-question",
  "answer:count-cue",
  "answer:sum-cue",
  "answer:max-cue",
  "answer:field-cue",
  "answer:literal",
  "field:relevance",
  "field:numeric",
  // behaviours a sibling induces, read from the view alone, so they have the same value under every
  // harness (prior 0): on kind:login, the last cell was refused for want of a valid access token of an
  // app whose password the view shows
  "kind:login-after-unauthorized",
  // on kind:doc, the last cell's call of an API was refused (a wrong name or argument) and its doc is not shown
  "kind:doc-after-refusal",
  // on a doc read, the API is the one the last cell's call of was refused (a 422 or no such API)
  "api:refused",
  // on kind:each and kind:page, the last cell was a loop over a filtered list that printed nothing (it
  // ran for no item): read from its own output, so the same under every harness
  "kind:retry-after-empty-loop",
  // on kind:complete, nothing the task needs is there yet: a question with no list collected, or a
  // change task before any change was made
  "kind:complete-unready",
  // on a list or condition option, a harness check reported that the filter of the policy's last answer
  // or loop keeps none of the list's items, and this choice again leaves none (0 under a base harness)
  "filter:empty-after-check",
  // on a condition option, it was one of the conditions of that filter and it still leaves some items
  "filter:kept-after-check",
  // on a second or third condition, its field already has one and a hint says one condition per field
  "cond:field-taken-hinted",
  // on kind:complete and on its answer as the held cell wrote it: the last cell's complete_task was held
  // by a harness check that found its filter keeping items (0 under a base harness)
  "kind:confirm-after-check",
  "answer:as-held",
  // on leaving out an optional argument of a list API: a hint says to page with the access token alone
  "arg:omit-hinted",
] as const;

/** A feature name. */
export type FeatureName = (typeof featureNames)[number];

/** Features of one option, by name (missing: 0). */
export type FeatureValues = Partial<Record<FeatureName, number>>;

/** The designer's prior weights, by feature (missing: 0). */
const priorWeights: FeatureValues = {
  "kind:apps-unseen": 3,
  "kind:apis-needed": 2.6,
  "kind:doc-needed": 2.2,
  "kind:passwords-unseen": 1.8,
  "kind:login-needed": 2,
  "kind:page-available": 1.6,
  "kind:call-available": 1.2,
  "kind:each-available": 1.4,
  "kind:complete-question-ready": 1.5,
  "kind:complete-change-ready": 2.4,
  "kind:complete-late": 3,
  "kind:complete-unready": -1.5,
  "kind:doc-after-refusal": 3,
  "api:refused": 3,
  "kind:retry-after-empty-loop": 2,
  "filter:empty-after-check": -3,
  "filter:kept-after-check": 1.5,
  "cond:field-taken-hinted": -3,
  "kind:confirm-after-check": 3,
  "answer:as-held": 4,
  "arg:omit-hinted": 3,
  "kind:after-failure": -0.3,
  "kind:repeats-last": -2,
  "kind:failed-before": -2.5,
  "app:relevance": 2,
  "app:fresh": 2,
  "api:relevance": 2,
  "api:fresh": 2.5,
  "api:lists": 1,
  "api:changes": 0.5,
  "api:creates": 0.3,
  "username:email": 1,
  "arg:omit": 0.8,
  "arg:token": 3,
  "arg:item-field": 2,
  "arg:instruction": 0.3,
  "arg:quoted": 0.3,
  "arg:seen": 0.6,
  "arg:choice-echoed": 1.5,
  "arg:name-echoed": 1,
  "list:recent": 1,
  "list:relevance": 1,
  "cond:all": 0.3,
  "cond:instruction": 1,
  "cond:keeps-some": 0.8,
  "cond:keeps-none": -1,
  "cond:none": 0.5,
  "answer:none-for-change": 2,
  "answer:none-for-question": -2,
  "answer:count-cue": 2,
  "answer:sum-cue": 2,
  "answer:max-cue": 2,
  "answer:field-cue": 1.5,
  "answer:literal": 0.2,
  "field:relevance": 1.5,
  "field:numeric": 0.3,
};

const features = namedFeatures(featureNames);

/** The feature vector of named values. */
export const featureVector: (values: FeatureValues) => number[] = features.vector;

/** The prior as a vector over `featureNames`. */
export function priorVector(): number[] {
  return features.weights(priorWeights);
}
