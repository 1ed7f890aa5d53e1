import {
  createLookupBenchmark,
  createLookupSensitivePolicy,
  lookupPool,
} from "@hs/harness/test-environments";
import { profilePool } from "@hs/profiles";
import { describe, expect, it } from "vitest";
import { measureRouting } from "./measure-routing.js";
import { defaultProfileJudges } from "./profile-judges.js";
import { createProfileRouter } from "./profile-router.js";
import { createVotingRouter } from "./voting-router.js";

describe("measureRouting on the lookup benchmark", () => {
  it("scores routers' top-1 against a random sibling on the same failed groups", async () => {
    const benchmark = createLookupBenchmark();
    const { tasks } = await benchmark.loadTasks({});
    const policy = createLookupSensitivePolicy();
    const { profiles } = await profilePool({
      benchmark,
      policy,
      pool: lookupPool,
      tasks,
      rolloutsPerTask: 1,
    });
    const measurement = await measureRouting({
      benchmark,
      policy,
      pool: lookupPool,
      profiles,
      routers: [createProfileRouter(), createVotingRouter({ judges: defaultProfileJudges() })],
      tasks,
      groupSize: 2,
    });
    expect(measurement.failedGroups).toBe(3);
    expect(measurement.perSibling).toEqual({ "sibling-budget": 1 / 3, "sibling-verification": 2 / 3 });
    expect(measurement.randomSibling).toBeCloseTo(0.5);
    expect(measurement.anySibling).toBe(1);
    expect(measurement.routerTop1.profile).toBe(1);
    // the profile router sends the budget failure to the budget sibling and the other two to verification
    expect(measurement.routerPicks.profile).toEqual({ "sibling-budget": 1, "sibling-verification": 2 });
    expect(measurement.routerTop1["vote-borda"]).toBeGreaterThan(measurement.randomSibling);
    // one outcome per failed group: its modes, who rescued it, and each router's pick
    expect(measurement.outcomes).toHaveLength(3);
    for (const outcome of measurement.outcomes) {
      expect(Object.values(outcome.mix).reduce((sum, weight) => sum + weight, 0)).toBeCloseTo(1);
      expect(outcome.rescuedBy.length).toBeGreaterThan(0);
      expect(outcome.rescuedBy).toContain(outcome.top1.profile);
    }
    expect(measurement.outcomes.filter((outcome) => outcome.top1.profile === "sibling-budget")).toEqual([
      expect.objectContaining({ mix: { "budget-exhausted": 1 }, rescuedBy: ["sibling-budget"] }),
    ]);
  });
});
