import { textSeed } from "@hs/harness";
import { createLookupBenchmark, lookupTextHarness } from "@hs/harness/test-environments";
import { type PolicyV1, type PolicyView, rerollControlId } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { evolvePool } from "./evolve.js";

/**
 * A policy whose success is luck: it looks the answer up with probability 0.3 drawn from the step seed
 * and the text it is shown, so any change of text re-draws the coin and no harness helps on average.
 */
function createCoinPolicy(): PolicyV1 {
  return {
    specificationVersion: "v1",
    id: "coin",
    version: "1",
    async act(view: PolicyView, options) {
      const all = view.messages.map((message) => message.content).join("\n");
      const country = /capital of (\w+)\?/.exec(all)?.[1] ?? "france";
      const previous = view.messages.filter((message) => message.role === "assistant").at(-1)?.content ?? "";
      const last = view.messages.at(-1)?.content ?? "";
      const reply = (content: string) => ({ content, logprob: null });
      if (previous.startsWith("lookup: ")) return reply(`answer: ${last.trim()}`);
      const coin = (textSeed(`${options.seed}\n${all}`) % 1000) / 1000;
      return reply(coin < 0.3 ? `lookup: ${country}` : "answer: unknown");
    },
  };
}

describe("evolvePool against the re-roll control", async () => {
  const benchmark = createLookupBenchmark();
  const { tasks } = await benchmark.loadTasks({});
  const { pool, report } = await evolvePool({
    benchmark,
    policy: createCoinPolicy(),
    tasks,
    base: lookupTextHarness,
    rolloutsPerTask: 8,
    generations: 3,
    candidatesPerGeneration: 3,
    directions: ["guidance", "verification", "error-recovery", "budget"],
    seed: 5,
    now: () => Date.UTC(2025, 0, 1),
  });
  const candidates = report.directions.flatMap((entry) => entry.candidates);

  it("keeps no sibling when every rescue is luck, though the old rule (rescued - regressions) would have", () => {
    expect(report.baseRun.failures).toBeGreaterThan(10);
    expect(candidates.length).toBeGreaterThan(10);
    const oldRule = candidates.filter(
      (candidate) => candidate.validation.rescued - candidate.validation.regressions >= 1,
    );
    expect(oldRule.length).toBeGreaterThan(0);
    expect(pool.siblings).toEqual([]);
  });

  it("pairs every candidate with the re-roll on the same failures and gives the reason it was refused", () => {
    for (const candidate of candidates) {
      const control = candidate.validation.control;
      expect(control?.failuresTried).toBe(candidate.validation.failuresTried);
      expect(control?.controlRescued).toBeGreaterThan(0);
      expect(candidate.score).toBe(
        candidate.validation.rescued - (control?.controlRescued ?? 0) - candidate.validation.regressions,
      );
    }
    for (const entry of report.directions.filter((direction) => direction.candidates.length > 0))
      expect(entry.outcome).toMatch(/re-roll|scored|rescued/);
  });

  it("runs the re-roll once per failure: candidates of one direction see the same control count", () => {
    for (const entry of report.directions) {
      const counts = new Set(
        entry.candidates.map((candidate) => candidate.validation.control?.controlRescued),
      );
      expect(counts.size).toBeLessThanOrEqual(1);
    }
    expect(report.properties).toBeNull();
    expect(rerollControlId).toBe("base-reroll");
  });
});
