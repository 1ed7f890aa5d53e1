import { z } from "zod";
import { fixDirections, harnessConfigSchema } from "./harness-config.js";
import { strictSection } from "./strict-object.js";

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
  base: strictSection({ id: z.string(), hash: z.string(), config: harnessConfigSchema }),
  /** The siblings. */
  siblings: z.array(siblingSchema),
});
/** A frozen sibling pool (version 1). */
export type Pool = z.infer<typeof poolSchema>;
