import { hashString } from "@hs/harness";
import type { Decision } from "@hs/spec";
import { InvalidInputError } from "@hs/spec";

/** Decisions flattened for the network: one row of features per option. */
export interface DecisionRows {
  /** Features per option, row-major (`optionCount * featureCount`). */
  features: Float32Array;
  /** Decision-name bucket per decision. */
  buckets: Int32Array;
  /** Number of options of each decision. */
  optionCounts: number[];
  /** Index of the chosen option within each decision (-1 when not chosen yet). */
  chosen: number[];
}

/** Bucket of a decision name in the decision-embedding table. */
export function decisionBucket(name: string, bucketCount: number): number {
  return hashString(name) % bucketCount;
}

/** Flattens decisions (and the indices of their chosen options) into network rows. */
export function toDecisionRows(
  decisions: readonly Decision[],
  chosen: readonly number[],
  featureCount: number,
  bucketCount: number,
): DecisionRows {
  let optionTotal = 0;
  for (const decision of decisions) optionTotal += decision.options.length;
  const features = new Float32Array(optionTotal * featureCount);
  const buckets = new Int32Array(decisions.length);
  const optionCounts: number[] = [];
  let row = 0;
  decisions.forEach((decision, decisionIndex) => {
    if (decision.options.length === 0) {
      throw new InvalidInputError(`decision "${decision.name}" has no options`, { field: "options" });
    }
    buckets[decisionIndex] = decisionBucket(decision.name, bucketCount);
    optionCounts.push(decision.options.length);
    for (const option of decision.options) {
      if (option.features.length !== featureCount) {
        throw new InvalidInputError(
          `option "${option.label}" of decision "${decision.name}" has ${option.features.length} features, expected ${featureCount}`,
          { field: "features" },
        );
      }
      features.set(option.features, row * featureCount);
      row++;
    }
  });
  return { features, buckets, optionCounts, chosen: [...chosen] };
}

/** Concatenates several row sets into one. */
export function concatDecisionRows(parts: readonly DecisionRows[], featureCount: number): DecisionRows {
  let featureTotal = 0;
  let decisionTotal = 0;
  for (const part of parts) {
    featureTotal += part.features.length;
    decisionTotal += part.buckets.length;
  }
  const features = new Float32Array(featureTotal);
  const buckets = new Int32Array(decisionTotal);
  const optionCounts: number[] = [];
  const chosen: number[] = [];
  let featureOffset = 0;
  let decisionOffset = 0;
  for (const part of parts) {
    features.set(part.features, featureOffset);
    buckets.set(part.buckets, decisionOffset);
    featureOffset += part.features.length;
    decisionOffset += part.buckets.length;
    optionCounts.push(...part.optionCounts);
    chosen.push(...part.chosen);
  }
  if (featureOffset % featureCount !== 0) throw new Error("feature rows do not divide by the feature count");
  return { features, buckets, optionCounts, chosen };
}
