import type { GrammarStep } from "@hs/spec";
import { type FeatureName, featureIndex } from "../features.js";

/** The value of one named feature on the option with `label` of a step's decision. */
export function optionFeature(step: GrammarStep, label: string, name: FeatureName): number | undefined {
  if (step.done) throw new Error(`expected a decision, but the action finished: ${step.content}`);
  return step.decision.options.find((option) => option.label === label)?.features[
    featureIndex.get(name) ?? -1
  ];
}
