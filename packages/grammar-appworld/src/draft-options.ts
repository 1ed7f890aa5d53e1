import type { DecisionWalk } from "@hs/grammar-kit";
import type { GrammarStep } from "@hs/spec";
import { InvalidInputError } from "@hs/spec";
import { type FeatureValues, featureVector } from "./features.js";

/** An option before its features become a vector. */
export interface DraftOption<Value = unknown> {
  /** Stable label. */
  label: string;
  /** Named features. */
  features: FeatureValues;
  /** What choosing it means to the code builder. */
  value: Value;
}

/** A part of a cell that the chosen labels built, or the step that asks the next decision. */
export type Built<Value> = Value | GrammarStep;

/** Most options one decision offers; builders list the likelier ones first and the rest are dropped. */
export const maxOptions = 24;

/**
 * The option of decision `name` that the walk's next label chose, or the step that asks this decision
 * when no label is left for it. The options offered are the first of each label, at most `maxOptions`;
 * a label that is not one of them is refused.
 */
export function pick<Value>(
  walk: DecisionWalk,
  name: string,
  options: readonly DraftOption<Value>[],
): Built<DraftOption<Value>> {
  const unique = options.filter(
    (option, at) => options.findIndex((other) => other.label === option.label) === at,
  );
  const offered = unique.slice(0, maxOptions);
  const label = walk.take();
  if (label === null) {
    return {
      done: false,
      decision: {
        name,
        options: offered.map((option) => ({ label: option.label, features: featureVector(option.features) })),
      },
    };
  }
  const found = offered.find((option) => option.label === label);
  if (found === undefined)
    throw new InvalidInputError(`"${label}" is not an option of decision "${name}"`, { field: "chosen" });
  return found;
}

/** Whether a built part is the step that asks the next decision. */
export function asksNext<Value extends object>(part: Built<Value>): part is GrammarStep {
  return "done" in part;
}
