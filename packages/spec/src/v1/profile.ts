import { z } from "zod";
import { strictSection } from "./strict-object.js";

/** Rescue counts for one failure mode. */
export const rescueCellSchema = strictSection({
  /** Base failures of this mode the harness was run on. */
  attempts: z.number().int().nonnegative(),
  /** Of those, how many it solved. */
  rescued: z.number().int().nonnegative(),
});

/** The behaviour profile of one harness for one policy version. */
export const harnessProfileSchema = strictSection({
  /** Harness id (a pool member). */
  harnessId: z.string(),
  /** Policy version the profile describes. */
  policyVersion: z.string(),
  /** Episodes behind the profile. */
  episodes: z.number().int().nonnegative(),
  /** Success rate overall. */
  successRate: z.number().min(0).max(1),
  /** Success rate per task category. */
  perCategory: z.record(z.string(), z.number().min(0).max(1)),
  /** The rescue-matrix row: per failure mode of the base harness, how often this harness solved it. */
  rescueByMode: z.record(z.string(), rescueCellSchema),
  /** Behaviour statistics (mean steps, tool error rate, recovery rate, truncations...). */
  behaviour: z.record(z.string(), z.number()),
});
/** The behaviour profile of one harness. */
export type HarnessProfile = z.infer<typeof harnessProfileSchema>;

/** Profiles of every harness of a pool, with their history for drift plots (version 1). */
export const profileSetSchema = strictSection({
  /** Schema version. */
  schemaVersion: z.literal(1),
  /** Current profiles by harness id. */
  profiles: z.record(z.string(), harnessProfileSchema),
  /** Earlier profiles, oldest first, each stamped with the training step it was measured at. */
  history: z.array(
    strictSection({
      /** The training step the profiles were measured at. */
      step: z.number().int().nonnegative(),
      /** The profiles then, by harness id. */
      profiles: z.record(z.string(), harnessProfileSchema),
    }),
  ),
});
/** Profiles of every harness of a pool. */
export type ProfileSet = z.infer<typeof profileSetSchema>;
