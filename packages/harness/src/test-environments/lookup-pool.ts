import type { HarnessConfig, Pool } from "@hs/spec";
import { createHarnessConfig } from "../parse-harness-config.js";
import { createPool, createSibling } from "../pool-entries.js";
import { lookupTextHarness } from "./lookup-benchmark.js";

function sibling(id: string, direction: "budget" | "verification", config: HarnessConfig) {
  return createSibling(
    { ...config, id },
    {
      direction,
      lineage: [lookupTextHarness.id],
      validation: { failuresTried: 1, rescued: 1, successesTried: 1, regressions: 0 },
    },
  );
}

/** A hand-made pool over the lookup benchmark: a longer budget and a check before submit. */
export const lookupPool: Pool = createPool({
  benchmark: "lookup",
  createdAt: "2025-01-01T00:00:00.000Z",
  policyVersion: "lookup-sensitive@1",
  base: lookupTextHarness,
  siblings: [
    sibling(
      "sibling-budget",
      "budget",
      createHarnessConfig({ ...lookupTextHarness, budget: { maxSteps: 9, maxOutputChars: null } }),
    ),
    sibling(
      "sibling-verification",
      "verification",
      createHarnessConfig({
        ...lookupTextHarness,
        verification: { enabled: true, prompt: "Check {answer}; submit again to confirm.", maxChecks: 1 },
      }),
    ),
  ],
});
