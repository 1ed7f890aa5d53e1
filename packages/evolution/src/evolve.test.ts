import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createLookupBenchmark,
  createLookupSensitivePolicy,
  lookupTextHarness,
} from "@hs/harness/test-environments";
import { poolSchema, rerollControlId } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { evolvePool } from "./evolve.js";
import { changedSections } from "./operators.js";
import { readPool, writePool } from "./pool-file.js";

describe("evolvePool on the lookup benchmark", async () => {
  const benchmark = createLookupBenchmark();
  const { tasks } = await benchmark.loadTasks({});
  const evolve = (concurrency: number) =>
    evolvePool({
      benchmark,
      policy: createLookupSensitivePolicy(),
      tasks,
      base: lookupTextHarness,
      rolloutsPerTask: 4,
      generations: 3,
      candidatesPerGeneration: 3,
      seed: 3,
      now: () => Date.UTC(2025, 0, 1),
      concurrency,
    });
  const result = await evolve(1);
  const { pool, report } = result;

  it("gives the same pool and report with episodes run concurrently", async () => {
    const concurrent = await evolve(3);
    expect(concurrent.pool).toEqual(pool);
    expect(concurrent.report).toEqual(report);
  }, 60_000);

  it("labels the base failures", () => {
    expect(report.baseRun).toMatchObject({ episodes: 16, successes: 4, failures: 12 });
    expect(report.baseRun.modeCounts["budget-exhausted"]).toBe(4);
    expect(report.baseRun.modeCounts["unrecovered-tool-error"]).toBe(4);
  });

  it("writes a valid pool whose siblings come from different directions and each changes only its section", () => {
    expect(poolSchema.parse(pool)).toEqual(pool);
    expect(pool.policyVersion).toBe("lookup-sensitive@1");
    expect(pool.createdAt).toBe("2025-01-01T00:00:00.000Z");
    const directions = pool.siblings.map((sibling) => sibling.direction);
    expect(new Set(directions).size).toBe(directions.length);
    expect(directions).toEqual(expect.arrayContaining(["budget", "error-recovery", "verification"]));
    for (const sibling of pool.siblings) {
      expect(sibling.validation.rescued).toBeGreaterThan(sibling.validation.regressions);
      expect(sibling.validation.control).toMatchObject({ controlRescued: 0, controlOnly: 0 });
      expect(sibling.validation.control?.pValue).toBeLessThan(0.1);
      expect(sibling.validation.confirmation?.siblingOnly).toBeGreaterThan(0);
      expect(sibling.lineage[0]).toBe(lookupTextHarness.id);
      const section = {
        budget: "budget",
        "error-recovery": "errorRecovery",
        verification: "verification",
        guidance: "prompt",
      }[sibling.direction as string];
      expect(changedSections(pool.base.config, sibling.config)).toEqual([section]);
    }
  });

  it("rejects directions whose candidates never rescue", () => {
    const context = report.directions.find((entry) => entry.direction === "context");
    expect(context?.chosen ?? null).toBeNull();
  });

  it("measures the rescue matrix, locality and complementarity, with the re-roll control", () => {
    const properties = report.properties;
    expect(properties).not.toBeNull();
    if (properties === null) return;
    expect(properties.rescueMatrix["sibling-budget"]?.["budget-exhausted"]).toEqual({
      attempts: 4,
      rescued: 4,
      rate: 1,
    });
    expect(properties.locality["sibling-budget"]?.locality).toBe(1);
    expect(properties.overall[rerollControlId]?.rescued).toBe(0);
    expect(properties.complementarity.unionTasks).toBe(3);
    expect(properties.complementarity.failedTasks).toBe(3);
    expect(properties.complementarity.bestSingle.tasks).toBeLessThan(3);
  });

  it("round-trips the pool through a file and names the field of a broken one", async () => {
    const directory = await mkdtemp(join(tmpdir(), "hs-pool-"));
    await writePool(join(directory, "pool.json"), pool);
    expect(await readPool(join(directory, "pool.json"))).toEqual(pool);
    await writeFile(
      join(directory, "bad.json"),
      JSON.stringify({
        ...pool,
        siblings: [{ ...pool.siblings[0], direction: "luck" }, ...pool.siblings.slice(1)],
      }),
    );
    await expect(readPool(join(directory, "bad.json"))).rejects.toThrow(
      /bad\.json, field "siblings\.0\.direction"/,
    );
  });
});
