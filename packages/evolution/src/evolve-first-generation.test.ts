import {
  createLookupBenchmark,
  createLookupSensitivePolicy,
  lookupTextHarness,
} from "@hs/harness/test-environments";
import { describe, expect, it } from "vitest";
import { listAnswerLibrary } from "./__fixtures__/list-answer-library.js";
import { type EvolveOptions, evolvePool } from "./evolve.js";

describe("evolvePool's first generation", async () => {
  const benchmark = createLookupBenchmark();
  const { tasks } = await benchmark.loadTasks({});
  const hints = ["Look the key up first.", "Answer with the value alone.", "Check the key's spelling."];
  const guidanceCandidates = async (options: Partial<EvolveOptions>) => {
    const { report } = await evolvePool({
      benchmark,
      policy: createLookupSensitivePolicy(),
      tasks,
      base: lookupTextHarness,
      rolloutsPerTask: 2,
      generations: 1,
      directions: ["guidance"],
      library: { ...listAnswerLibrary, hints },
      measureProperties: false,
      confirm: false,
      seed: 5,
      ...options,
    });
    return report.directions[0]?.candidates ?? [];
  };

  it("tries every hint of a library of three alone: three candidates, each one edit of the base", async () => {
    const candidates = await guidanceCandidates({});
    expect(candidates.map((candidate) => candidate.edits)).toEqual([
      ["add-hint[0]"],
      ["add-hint[1]"],
      ["add-hint[2]"],
    ]);
    for (const candidate of candidates) {
      expect(candidate.generation).toBe(1);
      expect(candidate.parent).toBe(lookupTextHarness.id);
      expect(candidate.validation.failuresTried).toBeGreaterThan(0);
    }
  });

  it("holds the cap with a seeded sample, the same for the same seed", async () => {
    const capped = await guidanceCandidates({ firstGenerationCap: 2 });
    expect(capped).toHaveLength(2);
    expect(await guidanceCandidates({ firstGenerationCap: 2 })).toEqual(capped);
    const names = capped.map((candidate) => candidate.edits[0]);
    expect(new Set(names).size).toBe(2);
    for (const name of names) expect(["add-hint[0]", "add-hint[1]", "add-hint[2]"]).toContain(name);
  });

  it("draws candidatesPerGeneration children at random when sampled", async () => {
    const sampled = await guidanceCandidates({ firstGeneration: "sampled", candidatesPerGeneration: 1 });
    expect(sampled).toHaveLength(1);
    expect(sampled[0]?.edits[0]).toMatch(/^add-hint\[[0-2]\]$/);
  });

  it("grows the later generations from the best, one more edit each", async () => {
    const candidates = await guidanceCandidates({ generations: 2, candidatesPerGeneration: 2 });
    const second = candidates.filter((candidate) => candidate.generation === 2);
    expect(second.length).toBeGreaterThan(0);
    const byId = new Map(candidates.map((candidate) => [candidate.id, candidate]));
    for (const candidate of second) {
      expect(candidate.edits).toHaveLength(2);
      expect(candidate.edits[0]).toBe(byId.get(candidate.parent)?.edits[0]);
    }
  });

  it("reports each candidate as it is validated, and every episode of each batch to onEpisodeDone", async () => {
    const lines: string[] = [];
    const batches: [number, number][] = [];
    const candidates = await guidanceCandidates({
      onProgress: (line) => lines.push(line),
      onEpisodeDone: (done, total) => batches.push([done, total]),
    });
    const reported = lines.filter((line) =>
      /^guidance: candidate \d\/3 \(add-hint\[\d\]\): rescued \d+\/\d+, control \d+ \(p [\d.]+\), regressions \d+\/\d+$/.test(
        line,
      ),
    );
    expect(reported).toHaveLength(candidates.length);
    const ends = batches.filter(([done, total]) => done === total);
    expect(ends.length).toBeGreaterThanOrEqual(1 + candidates.length);
    for (const [done, total] of batches) expect(done).toBeLessThanOrEqual(total);
  });
});
