import { askInOrder } from "@hs/grammar-kit";
import type { Decision, DecisionOption, GrammarStep } from "@hs/spec";
import { type FeatureName, featureIndex, featureNames, featureVectorOver } from "./features.js";
import type { SpanRole } from "./question-structure.js";
import { isStopWord } from "./value-candidates.js";
import type { ViewContext } from "./view-context.js";

const orderFeature = featureIndex.get("option-order") ?? -1;
const numberPattern = /^-?\d[\d,]*(\.\d+)?%?$/;

/** Feature index, value pairs of the named features that have a value. */
export function featurePairs(values: Partial<Record<FeatureName, number>>): number[] {
  const pairs: number[] = [];
  for (const [name, value] of Object.entries(values)) {
    const index = featureIndex.get(name);
    if (index !== undefined && value !== undefined) pairs.push(index, value);
  }
  return pairs;
}

/** An option whose vector is `features` with `values` written over it and the bias feature set. */
export function optionOver(
  label: string,
  features: number[],
  values: Partial<Record<FeatureName, number>>,
): DecisionOption {
  for (const name in values) {
    const index = featureIndex.get(name);
    const value = values[name as FeatureName];
    if (index !== undefined && value !== undefined) features[index] = value;
  }
  features[featureNames.length - 1] = 1;
  return { label, features };
}

/** An option: the view's context vector with `values` written over it. */
export function option(
  label: string,
  values: Partial<Record<FeatureName, number>>,
  context: ViewContext,
): DecisionOption {
  return { label, features: featureVectorOver(context.contextVector, values) };
}

/** A decision over a fixed list of items, one-hot by position, each with its `option-fit`. */
export function categorical(
  name: string,
  items: readonly string[],
  context: ViewContext,
  prefix: string,
  fit: (item: string) => number = () => 0,
): Decision {
  return {
    name,
    options: items.map((item, index) =>
      option(
        `${prefix}:${item}`,
        { [`category-${Math.min(index, 7)}` as FeatureName]: 1, "option-fit": fit(item) },
        context,
      ),
    ),
  };
}

/** The decision with guidance features written over its options. */
export function guide(
  decision: Decision,
  values: (label: string) => Partial<Record<FeatureName, number>>,
): Decision {
  const options = decision.options.map((entry) => {
    const features = entry.features.slice();
    for (const [name, value] of Object.entries(values(entry.label))) {
      const index = featureIndex.get(name);
      if (index !== undefined && value !== undefined && value !== 0) features[index] = value;
    }
    return { label: entry.label, features };
  });
  return { name: decision.name, options };
}

/** The decision with only the options whose label `keep` accepts. */
export function withoutOptions(decision: Decision, keep: (label: string) => boolean): Decision {
  return { name: decision.name, options: decision.options.filter((entry) => keep(entry.label)) };
}

/** The step that asks `decision`, each option marked with where it stands (`option-order`). */
export function ask(decision: Decision): GrammarStep {
  return askInOrder(decision, orderFeature);
}

/** A value computed on first use. */
export function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}

/** Lower-cased words of a text without stop words. */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !isStopWord(word));
}

/** Whether a text is a number (thousands commas, a decimal part and a % allowed). */
export function isNumber(text: string): boolean {
  return numberPattern.test(text.trim());
}

/** Which role a decision's column or value should play (see `roleSignOf`). */
export type RoleSign = "set" | "filter" | "not-filter" | null;

/**
 * Which role a decision wants its column or value to play: `set` for SET columns and values, `filter`
 * for WHERE and condition slots, `not-filter` for the select column, null where roles do not apply.
 */
export function roleSignOf(decision: string): RoleSign {
  if (decision.startsWith("set-")) return "set";
  if (/^(where-|condition-(column|value)|explore-target)/.test(decision)) return "filter";
  return decision === "select-column" ? "not-filter" : null;
}

/** How well a span's role in the question fits the role the decision wants. */
export function roleFit(sign: RoleSign, role: () => SpanRole): number {
  if (sign === null) return 0;
  const { set, filter } = role();
  if (sign === "set") return set - filter;
  if (sign === "filter") return filter - set;
  return -filter;
}
