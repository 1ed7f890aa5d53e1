import type { FixDirection, HarnessConfig, Pool, Sibling } from "@hs/spec";
import { harnessHash } from "./harness-hash.js";

/** What a sibling adds to its harness; its id and hash come from the harness itself. */
export interface SiblingEntry {
  /** The fix direction it was evolved along. */
  direction: FixDirection;
  /** Ids of its ancestors, base first. */
  lineage: string[];
  /** Validation statistics. */
  validation: Sibling["validation"];
}

/** A pool sibling for `config` (id = `config.id`, hash = `harnessHash(config)`). */
export function createSibling(config: HarnessConfig, entry: SiblingEntry): Sibling {
  return { id: config.id, hash: harnessHash(config), config, ...entry };
}

/** A pool whose base entry is derived from the base harness. */
export function createPool(options: Omit<Pool, "schemaVersion" | "base"> & { base: HarnessConfig }): Pool {
  const { base } = options;
  return {
    schemaVersion: 1,
    benchmark: options.benchmark,
    createdAt: options.createdAt,
    policyVersion: options.policyVersion,
    base: { id: base.id, hash: harnessHash(base), config: base },
    siblings: options.siblings,
  };
}
