import { createAppWorld } from "@hs/benchmarks-appworld";
import { runEpisode } from "@hs/harness";
import { createEmbeddedPolicy } from "@hs/policy-embedded";
import { afterAll, describe, expect, it } from "vitest";
import { createAppWorldGrammar } from "./appworld-grammar.js";

const appworld = createAppWorld({ parallelism: 1 });
afterAll(() => appworld.close());

describe("an episode of the embedded policy on the offline world", () => {
  it("runs a train task through runEpisode until it completes, and is graded", async () => {
    const { tasks } = await appworld.loadTasks({ split: "train" });
    const task = tasks.find((candidate) => candidate.id === "contactrelcount_1");
    if (task === undefined) throw new Error("no task contactrelcount_1");
    const policy = await createEmbeddedPolicy({ grammar: createAppWorldGrammar(), seed: 1 });
    const trajectory = await runEpisode({
      task,
      benchmark: appworld,
      harness: appworld.presets.react as NonNullable<(typeof appworld.presets)["react"]>,
      policy,
      seed: 1,
      mode: "greedy",
    });
    expect(trajectory.endReason).toBe("submitted");
    expect(trajectory.steps.at(-1)?.action.content).toContain("apis.supervisor.complete_task(");
    expect(trajectory.gradeDetails).toMatchObject({ num_tests: expect.any(Number) });
    expect(trajectory.success).toBe(true);
    expect(trajectory.steps.length).toBeLessThan(15);
  }, 60_000);
});
