import { z } from "zod";
import { advantageMethods } from "./advantages.js";
import { lossAggregations } from "./aggregation.js";
import { rescueGates } from "./rescue-gate.js";
import { rescueNegatives } from "./rescue-negatives.js";

/**
 * Ways of filling a training batch, all in one code path at equal rollout budget:
 * - `grpo`: every drawn group is trained on; all-fail groups give no signal.
 * - `dapo`: zero-variance groups are dropped and more prompts drawn (DAPO dynamic sampling).
 * - `harness-s`: all-fail groups are rescued under the router's top-k siblings.
 * - `single-sibling`: rescue always under the one sibling with the best validation score.
 * - `random-rescue`: rescue under k random siblings (router ablation).
 * - `all-rescue`: rescue under every sibling (no router).
 */
export const samplingMethods = [
  "grpo",
  "dapo",
  "harness-s",
  "single-sibling",
  "random-rescue",
  "all-rescue",
] as const;
/** Methods that rescue all-fail groups with sibling harnesses. */
export const rescueMethods = ["harness-s", "single-sibling", "random-rescue", "all-rescue"] as const;
/** A way of filling a training batch. */
export type SamplingMethod = (typeof samplingMethods)[number];

/** Configuration of a GRPO training run (written to the run directory as `config.json`). */
export const trainerConfigSchema = z.object({
  /** `grpo`: every drawn group is trained on (all-fail groups give no signal); `dapo`: zero-variance groups are dropped and more prompts drawn. */
  method: z.enum(samplingMethods),
  /** Run seed: prompt order, rollout seeds, initial weights. */
  seed: z.number().int(),
  /** Rollouts per prompt (G). */
  groupSize: z.number().int().min(2),
  /** Groups per optimisation step. */
  promptsPerStep: z.number().int().positive(),
  /** Total rollouts the run may spend (every rollout counts, kept or dropped). */
  rolloutBudget: z.number().int().positive(),
  /** DAPO: most prompts drawn for one step before training on what was kept. */
  maxDrawsPerStep: z.number().int().positive(),
  /** Advantage estimator. */
  advantage: z.enum(advantageMethods),
  /** Surrogate clip range. */
  clip: z.object({ low: z.number().min(0).max(1), high: z.number().min(0) }),
  /** Weight of the k3 KL to the initial policy (0: none). */
  klCoefficient: z.number().min(0),
  /** Loss aggregation. */
  aggregation: z.enum(lossAggregations),
  /** Adam learning rate. */
  learningRate: z.number().positive(),
  /** Adam epsilon (gradients of the embedded policy are small: 1e-8 turns noise into full steps). */
  adamEpsilon: z.number().positive(),
  /** Gradient steps per batch. */
  epochs: z.number().int().positive(),
  /** Global gradient-norm clip. */
  maxGradNorm: z.number().positive(),
  /** Directory of the weights training started from (absent: the seed's untrained policy). */
  initialPolicy: z.string().optional(),
  /** Save a checkpoint every N steps (0: only the final one). */
  checkpointEvery: z.number().int().nonnegative(),
  /** Rescue settings (used by the rescue methods). */
  rescue: z.object({
    /** Siblings per rescue (router top-k, random k). */
    k: z.number().int().positive(),
    /** Rollouts one rescue may spend, shared over the chosen siblings (0 turns rescue off). */
    budget: z.number().int().nonnegative(),
    /** Keep one base failure in the replacement group as a negative. */
    keepBaseNegative: z.boolean(),
    /** Re-anchor profiles every N steps on a probe set (0: never). */
    reanchorEvery: z.number().int().nonnegative(),
    /**
     * Train a rescued trajectory's harness calls as the policy's own decisions where the grammar
     * recovers them (harness-call credit; the context's `creditHarnessCalls`). Absent: off.
     */
    creditHarnessCalls: z.boolean().optional(),
    /**
     * When an all-fail group is rescued: `always`, or `yield` (only while the run's rescues have bought
     * signal groups a rollout at least as cheaply as its fresh prompts, `rescuePays`). Absent: always.
     */
    gate: z.enum(rescueGates).optional(),
    /**
     * `base`: each successful rescue rollout is replayed under the base harness (the same actions,
     * the base's views); a replay graded a success with every action transferred replaces it, so the
     * group trains the base views. Each replay counts as a rollout. Absent or `none`: off.
     */
    replay: z.enum(["none", "base"]).optional(),
    /** Where a rescued group's failures come from (`rescueNegatives`). Absent: `sibling`. */
    negatives: z.enum(rescueNegatives).optional(),
  }),
});
/** Configuration of a GRPO training run. */
export type TrainerConfig = z.infer<typeof trainerConfigSchema>;

/**
 * Defaults per method. `grpo` follows the original GRPO objective (symmetric clip 0.2,
 * seq-mean-token-mean); `dapo` follows DAPO (clip-higher 0.28, token-mean, dynamic sampling). Both
 * use no KL term by default, as DAPO and Dr. GRPO recommend.
 */
export function defaultTrainerConfig(method: SamplingMethod, seed: number): TrainerConfig {
  return {
    method,
    seed,
    groupSize: 8,
    promptsPerStep: 8,
    rolloutBudget: 3072,
    maxDrawsPerStep: 24,
    advantage: "grpo",
    clip: method === "dapo" ? { low: 0.2, high: 0.28 } : { low: 0.2, high: 0.2 },
    // no KL term by default (as DAPO, Yu et al. 2025): the prior leaves a rule for training to learn,
    // and a pull back to it held the dev gain to 3-4 tasks (rescue-grpo README); --kl sets one
    klCoefficient: 0,
    aggregation: method === "dapo" ? "token-mean" : "seq-mean-token-mean",
    learningRate: 0.05,
    adamEpsilon: 1e-3,
    epochs: 2,
    maxGradNorm: 1,
    checkpointEvery: 10,
    rescue: { k: 2, budget: 8, keepBaseNegative: true, reanchorEvery: 0 },
  };
}

/** The options of `EmbeddedGrpoLearner` a trainer config decides (the policy is added by the caller). */
export function embeddedLearnerOptions(config: TrainerConfig) {
  return {
    learningRate: config.learningRate,
    clip: config.clip,
    klCoefficient: config.klCoefficient,
    aggregation: config.aggregation,
    epochs: config.epochs,
    maxGradNorm: config.maxGradNorm,
    adamEpsilon: config.adamEpsilon,
  };
}
