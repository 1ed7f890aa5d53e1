import { describe, expect, it } from "vitest";
import { noYields, rescuePays } from "./rescue-gate.js";

describe("rescuePays", () => {
  it("pays before any base rollout and, optimistically, before any rescue", () => {
    expect(rescuePays(noYields(), 8)).toBe(true);
    // fresh prompts bought 1 signal group in 8 rollouts (0.125); an untried rescue of 8 reads as 1 in 8
    expect(rescuePays({ ...noYields(), baseRollouts: 8, baseSignalGroups: 1 }, 8)).toBe(true);
    expect(rescuePays({ ...noYields(), baseRollouts: 8, baseSignalGroups: 2 }, 8)).toBe(false);
  });

  it("stops once the rescues' record is worse than a fresh prompt's, and pays again when fresh prompts stop paying", () => {
    const fresh = { baseRollouts: 80, baseSignalGroups: 4 }; // 0.05 a rollout
    expect(rescuePays({ ...fresh, rescueRollouts: 8, rescueSignalGroups: 0 }, 8)).toBe(true); // 1/16
    expect(rescuePays({ ...fresh, rescueRollouts: 16, rescueSignalGroups: 0 }, 8)).toBe(false); // 1/24
    expect(rescuePays({ ...fresh, rescueRollouts: 16, rescueSignalGroups: 1 }, 8)).toBe(true); // 2/24
    expect(
      rescuePays({ baseRollouts: 800, baseSignalGroups: 4, rescueRollouts: 16, rescueSignalGroups: 0 }, 8),
    ).toBe(true);
  });
});
