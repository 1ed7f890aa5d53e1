import type { Decision, GrammarStep } from "@hs/harness";
import { InvalidInputError } from "@hs/harness";
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

/** Thrown inside a build to stop at the first decision not yet taken. */
class PendingDecision {
  constructor(readonly decision: Decision) {}
}

/** Most options one decision offers; builders list the likelier ones first and the rest are dropped. */
export const maxOptions = 24;

/**
 * Replays the chosen labels through a build: each `pick` returns the option chosen so far, or stops the
 * build with that decision when no label is left for it.
 */
export class Choices {
  private index = 0;
  constructor(private readonly chosen: readonly string[]) {}

  /** The chosen option of this decision (never offered empty: callers pass at least one option). */
  pick<Value>(name: string, options: readonly DraftOption<Value>[]): DraftOption<Value> {
    const unique = options.filter(
      (option, at) => options.findIndex((other) => other.label === option.label) === at,
    );
    const offered = unique.slice(0, maxOptions);
    const label = this.chosen[this.index];
    if (label === undefined) {
      throw new PendingDecision({
        name,
        options: offered.map((option) => ({ label: option.label, features: featureVector(option.features) })),
      });
    }
    this.index += 1;
    const found = offered.find((option) => option.label === label);
    if (found === undefined)
      throw new InvalidInputError(`"${label}" is not an option of decision "${name}"`, { field: "chosen" });
    return found;
  }
}

/** Runs a build over the chosen labels: the next decision, or the built action. */
export function runBuild(chosen: readonly string[], build: (choices: Choices) => GrammarStep): GrammarStep {
  try {
    return build(new Choices(chosen));
  } catch (error) {
    if (error instanceof PendingDecision) return { done: false, decision: error.decision };
    throw error;
  }
}
