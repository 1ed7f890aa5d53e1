import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createLookupBenchmark,
  createLookupSensitivePolicy,
  createScriptedPolicy,
  lookupPool,
} from "@hs/harness/test-environments";
import { describe, expect, it } from "vitest";
import { buildProfile } from "./build-profile.js";
import { readProfileSet, writeProfileSet } from "./profile-file.js";
import { profilePool } from "./profile-pool.js";
import { profileDrift, reanchorProfiles } from "./reanchor.js";

describe("profiles of a pool", async () => {
  const benchmark = createLookupBenchmark();
  const { tasks } = await benchmark.loadTasks({});
  const policy = createLookupSensitivePolicy();
  const { profiles, baseTrajectories } = await profilePool({
    benchmark,
    policy,
    pool: lookupPool,
    tasks,
    rolloutsPerTask: 1,
  });

  it("profiles every harness of the pool for the stated policy version", () => {
    expect(Object.keys(profiles.profiles).sort()).toEqual([
      "lookup-text",
      "sibling-budget",
      "sibling-verification",
    ]);
    const base = profiles.profiles["lookup-text"];
    expect(base).toMatchObject({
      policyVersion: "lookup-sensitive@1",
      episodes: 4,
      successRate: 0.25,
      perCategory: {},
    });
    expect(base?.rescueByMode).toEqual({});
  });

  it("keys per-category success by the benchmark's observable category, never the dataset's", async () => {
    const observing = {
      ...benchmark,
      observableCategory: (task: { instruction: string }) =>
        /(france|peru)\?$/.test(task.instruction) ? "latin-script" : "other-script",
    };
    const seen: string[] = [];
    const { profiles: observed } = await profilePool({
      benchmark: observing,
      policy,
      pool: lookupPool,
      tasks,
      rolloutsPerTask: 1,
      profileBuilder: (input) => {
        seen.push(JSON.stringify(input));
        return buildProfile(input);
      },
    });
    expect(observed.profiles["lookup-text"]?.perCategory).toEqual({ "latin-script": 0.5, "other-script": 0 });
    expect(seen.length).toBe(3);
    expect(seen.some((text) => text.includes('"capital"') || text.includes("gradeDetails"))).toBe(false);
  });

  it("fills each sibling's rescue row from the base failures", () => {
    expect(profiles.profiles["sibling-budget"]?.rescueByMode["budget-exhausted"]).toEqual({
      attempts: 1,
      rescued: 1,
    });
    expect(profiles.profiles["sibling-budget"]?.rescueByMode["premature-answer"]).toEqual({
      attempts: 2,
      rescued: 0,
    });
    expect(profiles.profiles["sibling-verification"]?.rescueByMode["premature-answer"]).toEqual({
      attempts: 2,
      rescued: 2,
    });
    expect(profiles.profiles["sibling-verification"]?.successRate).toBe(0.75);
    expect(
      baseTrajectories
        .filter((trajectory) => !trajectory.success)
        .every((trajectory) => trajectory.failureModes.length > 0),
    ).toBe(true);
  });

  it("computes behaviour statistics: steps, tool mix, error and recovery rates", () => {
    const base = profiles.profiles["lookup-text"]?.behaviour ?? {};
    expect(base.meanSteps).toBe((1 + 1 + 6 + 2) / 4);
    expect(base.toolErrorRate).toBeCloseTo(1 / 10);
    expect(base.recoveryRate).toBe(0);
    expect(base["tool:dump"]).toBeCloseTo(5 / 10);
    expect(base.budgetHitRate).toBe(0.25);
    expect(profiles.profiles["sibling-verification"]?.behaviour.verificationsPerEpisode).toBeGreaterThan(0);
  });

  it("re-anchors with the current policy and keeps the history for drift", async () => {
    const failures = baseTrajectories.filter((trajectory) => !trajectory.success);
    const guesser = createScriptedPolicy(["answer: Paris"], "guesser");
    const next = await reanchorProfiles({
      benchmark,
      policy: guesser,
      profiles,
      pool: lookupPool,
      tasks,
      probe: { recentFailures: failures, fixedTasks: tasks },
      step: 50,
    });
    expect(next.history.map((entry) => entry.step)).toEqual([0, 50]);
    expect(next.profiles["sibling-verification"]?.policyVersion).toBe("guesser@0");
    expect(next.profiles["sibling-verification"]?.rescueByMode["premature-answer"]).toEqual({
      attempts: 2,
      rescued: 0,
    });
    expect(profiles.history).toHaveLength(1);
    const drift = profileDrift(next).filter((point) => point.harnessId === "sibling-verification");
    expect(drift).toEqual([
      expect.objectContaining({ step: 0, successRate: 0.75, rescueRate: 0.75 }),
      expect.objectContaining({ step: 50, successRate: 0.25, rescueRate: 0 }),
    ]);
  });

  it("round-trips through a file and names the field of a broken one", async () => {
    const directory = await mkdtemp(join(tmpdir(), "hs-profiles-"));
    await writeProfileSet(join(directory, "profiles.json"), profiles);
    expect(await readProfileSet(join(directory, "profiles.json"))).toEqual(profiles);
    await writeFile(
      join(directory, "bad.json"),
      JSON.stringify({
        ...profiles,
        profiles: { x: { ...profiles.profiles["lookup-text"], successRate: 2 } },
      }),
    );
    await expect(readProfileSet(join(directory, "bad.json"))).rejects.toThrow(
      /field "profiles\.x\.successRate"/,
    );
  });
});
