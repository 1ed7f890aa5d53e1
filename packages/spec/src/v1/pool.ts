import { z } from "zod";
import { fixDirections, harnessConfigSchema } from "./harness-config.js";
import { strictSection } from "./strict-object.js";

/** Id of the re-roll control wherever it is reported beside siblings: the base harness with fresh seeds. */
export const rerollControlId = "base-reroll";

/** A sibling against the base harness re-rolled with the same fresh seeds on the same base failures. */
export const rerollComparisonSchema = strictSection({
  /** Base failures of the sibling's direction both were run on. */
  failuresTried: z.number().int().nonnegative(),
  /** Of those, how many the sibling solved. */
  rescued: z.number().int().nonnegative(),
  /** Of those, how many the base harness re-rolled solved. */
  controlRescued: z.number().int().nonnegative(),
  /** Solved by the sibling and not by the re-roll. */
  siblingOnly: z.number().int().nonnegative(),
  /** Solved by the re-roll and not by the sibling. */
  controlOnly: z.number().int().nonnegative(),
  /** One-sided exact sign test on the discordant pairs (small: the sibling beats the re-roll). */
  pValue: z.number().min(0).max(1),
});
/** A sibling against the base harness re-rolled on the same failures and seeds. */
export type RerollComparison = z.infer<typeof rerollComparisonSchema>;

/** How a sibling fared in validation. */
export const validationStatsSchema = strictSection({
  /** Base failures of the sibling's direction it was run on. */
  failuresTried: z.number().int().nonnegative(),
  /** Of those, how many it solved. */
  rescued: z.number().int().nonnegative(),
  /** Base successes it was run on. */
  successesTried: z.number().int().nonnegative(),
  /** Of those, how many it failed. */
  regressions: z.number().int().nonnegative(),
  /**
   * Against the re-roll control on the seeds it was selected on (`rescued` above counts the same
   * episodes). Absent in pools evolved before the control existed.
   */
  control: rerollComparisonSchema.optional(),
  /** Against the re-roll control on other fresh seeds, after selection (the winner's-curse check). */
  confirmation: rerollComparisonSchema.optional(),
});

/** One sibling harness of a pool. */
export const siblingSchema = strictSection({
  /** Sibling id, unique in the pool. */
  id: z.string().min(1),
  /** The fix direction it was evolved along. */
  direction: z.enum(fixDirections),
  /** Content hash of `config`. */
  hash: z.string(),
  /** The harness. */
  config: harnessConfigSchema,
  /** Ids of its ancestors, base first. */
  lineage: z.array(z.string()),
  /** Validation statistics. */
  validation: validationStatsSchema,
});
/** One sibling harness of a pool. */
export type Sibling = z.infer<typeof siblingSchema>;

/** A frozen sibling pool (version 1): training only reads it. */
export const poolSchema = strictSection({
  /** Schema version. */
  schemaVersion: z.literal(1),
  /** Benchmark id. */
  benchmark: z.string(),
  /** ISO time of creation. */
  createdAt: z.string(),
  /** Policy version the pool was evolved against. */
  policyVersion: z.string(),
  /** The base harness. */
  base: strictSection({
    /** The base harness's id. */
    id: z.string(),
    /** Content hash of `config`. */
    hash: z.string(),
    /** The base harness config the siblings were evolved from. */
    config: harnessConfigSchema,
  }),
  /** The siblings. */
  siblings: z.array(siblingSchema),
});
/** A frozen sibling pool (version 1). */
export type Pool = z.infer<typeof poolSchema>;
