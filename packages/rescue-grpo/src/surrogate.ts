/** Clipping range of the surrogate: the ratio is clipped to `[1 - low, 1 + high]`. */
export interface ClipRange {
  /** eps_low (0.2 by default). */
  low: number;
  /** eps_high (0.2 for PPO/GRPO, 0.28 for DAPO's clip-higher). */
  high: number;
}

/** One token's surrogate loss with what it is made of. */
export interface TokenLoss {
  /** `exp(logprob - oldLogprob)`. */
  ratio: number;
  /** Whether the clipped term was the minimum (no gradient flows through the ratio). */
  clipped: boolean;
  /** `-min(ratio * A, clip(ratio) * A)`. */
  policyLoss: number;
  /** k3 estimate of KL(current || reference); 0 without a reference. */
  kl: number;
  /** `policyLoss + klCoefficient * kl`. */
  loss: number;
}

/**
 * k3 estimator of KL(pi || pi_ref) from one sample of pi (Schulman, "Approximating KL divergence"):
 * `exp(ref - logprob) - (ref - logprob) - 1`, unbiased and never negative.
 */
export function k3Kl(logprob: number, referenceLogprob: number): number {
  const logRatio = referenceLogprob - logprob;
  return Math.exp(logRatio) - logRatio - 1;
}

/** The clipped surrogate loss of one token (PPO form with separate eps_low / eps_high). */
export function tokenLoss(
  logprob: number,
  oldLogprob: number,
  advantage: number,
  clip: ClipRange,
  klCoefficient = 0,
  referenceLogprob?: number,
): TokenLoss {
  const ratio = Math.exp(logprob - oldLogprob);
  const clippedRatio = Math.min(Math.max(ratio, 1 - clip.low), 1 + clip.high);
  const unclippedObjective = ratio * advantage;
  const clippedObjective = clippedRatio * advantage;
  const clipped = clippedObjective < unclippedObjective;
  const policyLoss = -Math.min(unclippedObjective, clippedObjective);
  const kl = referenceLogprob === undefined ? 0 : k3Kl(logprob, referenceLogprob);
  return { ratio, clipped, policyLoss, kl, loss: policyLoss + klCoefficient * kl };
}
