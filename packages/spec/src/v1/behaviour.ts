import { z } from "zod";

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
