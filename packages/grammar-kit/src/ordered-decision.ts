import type { DecisionOption, GrammarStep } from "@hs/spec";

/**
 * The step that asks `decision`, each option's feature at `orderFeature` set to where it stands (0 first,
 * 1 last, 0 for a lone option): a prior's explicit tie-break between options whose other features are
 * equal. The options are copied, not changed.
 */
export function askInOrder(
  decision: { readonly name: string; readonly options: readonly DecisionOption[] },
  orderFeature: number,
): GrammarStep {
  const last = decision.options.length - 1;
  const options = decision.options.map((entry, index) => {
    const features = entry.features.slice();
    features[orderFeature] = last <= 0 ? 0 : index / last;
    return { label: entry.label, features };
  });
  return { done: false, decision: { name: decision.name, options } };
}
