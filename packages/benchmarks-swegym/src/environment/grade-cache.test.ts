import type { Grade } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { createSweGym } from "../create-swegym.js";
import { GradeCache } from "./grade-cache.js";

const verdict = (details: Record<string, unknown> = {}): Grade => ({ reward: 1, success: true, details });

describe("GradeCache", () => {
  it("evaluates a patch once per instance, and again for another patch or instance", async () => {
    const cache = new GradeCache();
    let runs = 0;
    const evaluate = async () => {
      runs += 1;
      return verdict({ resolved: true });
    };
    await cache.grade("a", "diff 1", evaluate);
    const again = await cache.grade("a", "diff 1", evaluate);
    expect(runs).toBe(1);
    expect(again.details).toEqual({ resolved: true });
    await cache.grade("a", "diff 2", evaluate);
    await cache.grade("b", "diff 1", evaluate);
    expect(runs).toBe(3);
    expect([cache.runs, cache.hits, cache.size]).toEqual([3, 1, 3]);
  });

  it("does not keep a timed-out or failed evaluation, and overlapping runs of one key share one", async () => {
    const cache = new GradeCache();
    let runs = 0;
    await cache.grade("a", "p", async () => {
      runs += 1;
      return verdict({ timed_out: true });
    });
    await expect(
      cache.grade("a", "q", async () => {
        runs += 1;
        throw new Error("workspace vanished");
      }),
    ).rejects.toThrow("workspace vanished");
    const slow = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return verdict();
    };
    await Promise.all([
      cache.grade("a", "p", slow),
      cache.grade("a", "p", slow),
      cache.grade("a", "q", slow),
    ]);
    expect(runs).toBe(4);
  });
});

describe("the benchmark's grade cache", () => {
  it("grades a repeated submission without running the evaluation again, and a different one anew", async () => {
    const benchmark = await createSweGym();
    const cache = benchmark.gradeCache;
    if (cache === null) throw new Error("no grade cache");
    let workspaces = 0;
    const original = benchmark.runtime.createWorkspace.bind(benchmark.runtime);
    Object.assign(benchmark.runtime, {
      createWorkspace: (...request: Parameters<typeof original>) => {
        workspaces += 1;
        return original(...request);
      },
    });
    const { tasks } = await benchmark.loadTasks({ split: "train" });
    const task = tasks.find((entry) => entry.metadata.instanceId === "harness-s__durations-4");
    if (task === undefined) throw new Error("no durations-4");
    const episode = async (edit: string) => {
      const environment = await benchmark.createEnvironment(task, { seed: 0 });
      await environment.reset();
      const command = `${edit} && echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached`;
      await environment.step({ id: "1", name: "bash", arguments: { command } });
      const grade = await environment.grade();
      await environment.close();
      return grade;
    };
    const fix = "sed -i 's/cleaned = text.strip()$/cleaned = text.strip().lower()/' durations/parse.py";
    const first = await episode(fix);
    expect(first.reward).toBe(1);
    expect([cache.runs, workspaces]).toEqual([1, 2]);
    const repeated = await episode(fix);
    expect(repeated.reward).toBe(1);
    expect(repeated).toEqual(first);
    expect([cache.runs, cache.hits, workspaces]).toEqual([1, 1, 3]);
    const other = await episode("echo 'Units are case-sensitive.' >> README.md");
    expect(other.reward).toBe(0);
    expect([cache.runs, workspaces]).toEqual([2, 5]);
  });

  it("is off with cacheGrades: false", async () => {
    expect((await createSweGym({ cacheGrades: false })).gradeCache).toBeNull();
  });
});
