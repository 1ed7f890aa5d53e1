import { createHarnessConfig, replayEpisode, runEpisode } from "@hs/harness";
import { createLookupBenchmark, createLookupGrammar, lookupTextHarness } from "@hs/harness/test-environments";
import { createEmbeddedPolicy } from "@hs/policy-embedded";
import type { Trajectory } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { embeddedReplayAction } from "./replay-action.js";

const benchmark = createLookupBenchmark();
const { tasks } = await benchmark.loadTasks({});
const task = tasks[0]!;
const hinted = createHarnessConfig({
  ...lookupTextHarness,
  id: "lookup-hinted",
  prompt: { ...lookupTextHarness.prompt, hints: ["Look the country up before answering."] },
});
const policy = await createEmbeddedPolicy({ grammar: createLookupGrammar(), seed: 9 });

async function siblingSuccess(): Promise<Trajectory> {
  for (let seed = 1; seed < 200; seed++) {
    const trajectory = await runEpisode({ task, benchmark, harness: hinted, policy, seed });
    if (trajectory.success) return trajectory;
  }
  throw new Error("no success under the sibling in 200 seeds");
}

describe("embeddedReplayAction", () => {
  it("writes a sibling's decisions under the base views, with the policy's log-probabilities there", async () => {
    const sibling = await siblingSuccess();
    const replayed = await replayEpisode({
      task,
      benchmark,
      harness: lookupTextHarness,
      trajectory: sibling,
      actionUnder: embeddedReplayAction(policy),
    });
    expect(replayed.transferred).toBe(true);
    expect(replayed.trajectory.success).toBe(true);
    const labels = (trajectory: Trajectory) =>
      trajectory.steps.map((step) => (step.action.trace as { labels: string[] }).labels);
    expect(labels(replayed.trajectory)).toEqual(labels(sibling));
    for (const step of replayed.trajectory.steps) {
      expect(step.view.messages.some((message) => message.content.includes("Look the country up"))).toBe(
        false,
      );
      expect(Number.isFinite(step.action.logprob)).toBe(true);
    }
  });

  it("refuses an action of another policy and decisions the view does not offer", async () => {
    const sibling = await siblingSuccess();
    const view = sibling.steps[0]!.view;
    const actionUnder = embeddedReplayAction(policy);
    expect(actionUnder(view, { content: sibling.steps[0]!.action.content, logprob: null })).toBeNull();
    const bogus = {
      ...sibling.steps[0]!.action,
      trace: { kind: "embedded-decisions", labels: ["no-such-kind"] },
    };
    expect(actionUnder(view, bogus)).toBeNull();
    expect(actionUnder(view, sibling.steps[0]!.action)).not.toBeNull();
  });
});
