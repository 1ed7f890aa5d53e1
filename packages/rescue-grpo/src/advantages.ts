import { InvalidInputError } from "@hs/spec";

/** Advantage estimators of a group of rewards. */
export const advantageMethods = ["grpo", "dr-grpo", "rloo"] as const;
/** An advantage estimator. */
export type AdvantageMethod = (typeof advantageMethods)[number];

/** The epsilon added to the standard deviation by GRPO. */
export const grpoEpsilon = 1e-6;

/**
 * Advantages of one group of rewards (one per rollout of the same prompt).
 *
 * - `grpo`: `(r_i - mean) / (std + 1e-6)`, with the sample standard deviation (n - 1), as verl's
 *   `compute_grpo_outcome_advantage` and TRL's `GRPOTrainer` compute it (`torch.std` is unbiased).
 * - `dr-grpo`: `r_i - mean` (Dr. GRPO drops the division by the standard deviation).
 * - `rloo`: `r_i - mean_{j != i} r_j` (leave-one-out baseline).
 *
 * A group of one rollout has no baseline: its advantage is 0.
 */
export function groupAdvantages(
  rewards: readonly number[],
  method: AdvantageMethod,
  epsilon = grpoEpsilon,
): number[] {
  const count = rewards.length;
  if (count === 0) throw new InvalidInputError("a group needs at least one reward", { field: "rewards" });
  for (const [index, reward] of rewards.entries()) {
    if (!Number.isFinite(reward))
      throw new InvalidInputError(`reward ${index} is not finite`, { field: "rewards" });
  }
  if (count === 1) return [0];
  const total = rewards.reduce((sum, reward) => sum + reward, 0);
  const mean = total / count;
  switch (method) {
    case "grpo": {
      const variance = rewards.reduce((sum, reward) => sum + (reward - mean) ** 2, 0) / (count - 1);
      const deviation = Math.sqrt(variance);
      return rewards.map((reward) => (reward - mean) / (deviation + epsilon));
    }
    case "dr-grpo":
      return rewards.map((reward) => reward - mean);
    case "rloo":
      return rewards.map((reward) => reward - (total - reward) / (count - 1));
  }
}

/** Whether all rewards of a group are equal (no signal for any group-relative advantage). */
export function hasZeroVariance(rewards: readonly number[]): boolean {
  return rewards.every((reward) => reward === rewards[0]);
}
