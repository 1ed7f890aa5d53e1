import { createHarnessConfig } from "@hs/harness";
import { lookupTextHarness } from "@hs/harness/test-environments";
import type { HarnessConfig } from "@hs/spec";

/** The lookup base harness with short observations (for context-loss cases). */
export const shortContextHarness: HarnessConfig = createHarnessConfig({
  ...lookupTextHarness,
  context: { ...lookupTextHarness.context, truncateObservationChars: 12 },
});
