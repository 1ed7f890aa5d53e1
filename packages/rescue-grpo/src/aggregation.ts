import { InvalidInputError } from "@hs/spec";

/** How per-token losses become one scalar. */
export const lossAggregations = ["token-mean", "seq-mean-token-mean", "seq-mean-token-sum-norm"] as const;
/** A loss aggregation. */
export type LossAggregation = (typeof lossAggregations)[number];

/**
 * The weight of every token in the aggregated loss (`loss = sum_t weight_t * loss_t`), sequences in
 * order, tokens in order within each.
 *
 * - `token-mean`: every token of the batch counts the same (DAPO): `1 / sum_i T_i`.
 * - `seq-mean-token-mean`: mean over tokens, then over sequences (original GRPO): `1 / (N * T_i)`.
 * - `seq-mean-token-sum-norm`: token sums divided by a constant, then the mean over sequences
 *   (Dr. GRPO, understand-r1-zero): `1 / (N * normalizer)`; the normalizer defaults to the longest
 *   sequence of the batch and should be a fixed budget for comparable runs.
 */
export function tokenWeights(
  tokenCounts: readonly number[],
  aggregation: LossAggregation,
  normalizer?: number,
): number[][] {
  const sequences = tokenCounts.length;
  if (sequences === 0) return [];
  const totalTokens = tokenCounts.reduce((sum, count) => sum + count, 0);
  const longest = Math.max(...tokenCounts);
  const constant = normalizer ?? longest;
  if (!(constant > 0))
    throw new InvalidInputError("the token-sum normalizer must be positive", { field: "normalizer" });
  return tokenCounts.map((count) => {
    let weight: number;
    switch (aggregation) {
      case "token-mean":
        weight = totalTokens === 0 ? 0 : 1 / totalTokens;
        break;
      case "seq-mean-token-mean":
        weight = count === 0 ? 0 : 1 / (sequences * count);
        break;
      case "seq-mean-token-sum-norm":
        weight = 1 / (sequences * constant);
        break;
    }
    return new Array<number>(count).fill(weight);
  });
}

/** Aggregates per-token losses (one array per sequence) with the weights of `tokenWeights`. */
export function aggregateLoss(
  losses: readonly (readonly number[])[],
  aggregation: LossAggregation,
  normalizer?: number,
): number {
  const weights = tokenWeights(
    losses.map((sequence) => sequence.length),
    aggregation,
    normalizer,
  );
  let total = 0;
  losses.forEach((sequence, index) => {
    sequence.forEach((loss, position) => {
      total += loss * (weights[index]?.[position] ?? 0);
    });
  });
  return total;
}
