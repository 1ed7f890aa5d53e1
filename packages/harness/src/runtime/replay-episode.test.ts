import { describe, expect, it } from "vitest";
import { createHarnessConfig } from "../parse-harness-config.js";
import {
  createLookupBenchmark,
  createScriptedPolicy,
  lookupTextHarness,
} from "../test-environments/index.js";
import { replayEpisode } from "./replay-episode.js";
import { runEpisode } from "./run-episode.js";

const benchmark = createLookupBenchmark();
const { tasks } = await benchmark.loadTasks({});
const france = tasks[0]!;
const hinted = createHarnessConfig({
  ...lookupTextHarness,
  id: "lookup-hinted",
  prompt: { ...lookupTextHarness.prompt, hints: ["Look the country up before answering."] },
});

async function hintedEpisode(actions: string[]) {
  return runEpisode({
    task: france,
    benchmark,
    harness: hinted,
    policy: createScriptedPolicy(actions),
    seed: 7,
  });
}

describe("replayEpisode", () => {
  it("gives a sibling's actions again under the base harness's own views, in a fresh environment", async () => {
    const sibling = await hintedEpisode(["lookup: france", "answer: Paris"]);
    const views: string[] = [];
    const replayed = await replayEpisode({
      task: france,
      benchmark,
      harness: lookupTextHarness,
      trajectory: sibling,
      actionUnder: (view, action) => {
        views.push(view.messages.map((message) => message.content).join("\n"));
        return action;
      },
    });
    expect(replayed.transferred).toBe(true);
    expect(replayed.trajectory.success).toBe(true);
    expect(replayed.trajectory.harnessId).toBe("lookup-text");
    expect(replayed.trajectory.seed).toBe(7);
    expect(replayed.trajectory.steps.map((step) => step.action.content)).toEqual([
      "lookup: france",
      "answer: Paris",
    ]);
    expect(
      sibling.steps[0]?.view.messages.some((message) => message.content.includes("Look the country up")),
    ).toBe(true);
    expect(views.some((text) => text.includes("Look the country up"))).toBe(false);
  });

  it("is not transferred when an action is refused under the new view or the steps run out", async () => {
    const sibling = await hintedEpisode(["lookup: france", "answer: Paris"]);
    const refused = await replayEpisode({
      task: france,
      benchmark,
      harness: lookupTextHarness,
      trajectory: sibling,
      actionUnder: (_view, action) => (action.content.startsWith("answer") ? null : action),
    });
    expect(refused.transferred).toBe(false);
    const short = await hintedEpisode(["lookup: france"]);
    const ranOut = await replayEpisode({
      task: france,
      benchmark,
      harness: lookupTextHarness,
      trajectory: { ...short, steps: short.steps.slice(0, 1) },
      actionUnder: (_view, action) => action,
    });
    expect(ranOut.transferred).toBe(false);
  });
});
