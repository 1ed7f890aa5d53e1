import { z } from "zod";
import type { HarnessConfig } from "./harness-config.js";
import type { Trajectory } from "./trajectory.js";

/** Version of the behaviour-detector contract and of `behaviour-frequency.json`. */
export const BEHAVIOUR_CONTRACT_VERSION = 1;

/** How often one trajectory met a behaviour's occasion and how often the policy showed it. */
export interface BehaviourCount {
  /** Occasions in the trajectory where the behaviour could be shown (0 when none arose). */
  occasions: number;
  /** Occasions on which the policy showed the behaviour (never more than `occasions`). */
  shown: number;
}

/**
 * A behaviour a sibling harness is meant to induce, detected from a trajectory. A detector reads only the
 * policy's own actions and the observations it saw, never grading data (labels, gold answers, rewards).
 */
export interface BehaviourDetector {
  /** Stable kebab-case id, used as the key in `behaviour-frequency.json`. */
  id: string;
  /** Human-readable title for reports. */
  title: string;
  /** Whether a sibling's harness config induces this behaviour (reads the config only). */
  inducedBy: (config: HarnessConfig) => boolean;
  /** Occasions and times shown in one trajectory. */
  count: (trajectory: Trajectory) => BehaviourCount;
}

/** Shown / occasions of one behaviour, summed over a policy's held-out trajectories. */
export const behaviourTallySchema = z
  .object({
    /** Trajectories (or occasions) on which the policy showed the behaviour. */
    shown: z.number().int().nonnegative(),
    /** Trajectories (or occasions) where the behaviour could be shown. */
    applicable: z.number().int().nonnegative(),
  })
  .refine((tally) => tally.shown <= tally.applicable, {
    message: "shown must not exceed applicable (a behaviour is shown only on an occasion for it)",
    path: ["shown"],
  });
/** Shown / occasions of one behaviour. */
export type BehaviourTally = z.infer<typeof behaviourTallySchema>;

/** One measured policy and seed: its tally per behaviour id (every key other than `policy` and `seed`). */
export const behaviourRowSchema = z
  .object({
    /** `untrained`, or the training method whose final policy was evaluated (`grpo`, `harness-s`...). */
    policy: z.string().min(1),
    /** Seed of the evaluation (untrained) or of the training run. */
    seed: z.number().int(),
  })
  .catchall(behaviourTallySchema);
/** One measured policy and seed. */
export type BehaviourRow = z.infer<typeof behaviourRowSchema>;

/** `DIR/behaviour-frequency.json`: behaviour frequency on held-out tasks under the base harness. */
export const behaviourFrequencyFileSchema = z.object({
  /** Benchmark id. */
  benchmark: z.string(),
  /** Split the trajectories came from (a held-out one). */
  split: z.string(),
  /** Harness the policies were evaluated under (`base`). */
  harness: z.string(),
  /** Kept siblings of the pool and the behaviour ids each induces (from its harness config only). */
  siblings: z.array(
    z.object({
      /** Sibling id. */
      id: z.string(),
      /** The sibling's direction, as the pool names it. */
      direction: z.string().optional(),
      /** Behaviour ids this sibling's config induces. */
      behaviours: z.array(z.string()),
    }),
  ),
  /** One row per policy and seed. */
  rows: z.array(behaviourRowSchema),
});
/** `DIR/behaviour-frequency.json`. */
export type BehaviourFrequencyFile = z.infer<typeof behaviourFrequencyFileSchema>;
