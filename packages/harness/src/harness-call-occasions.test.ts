import { describe, expect, it } from "vitest";
import { harnessCallOccasions } from "./harness-call-occasions.js";
import { runEpisode } from "./runtime/run-episode.js";
import {
  createLookupBenchmark,
  createScriptedPolicy,
  lookupTextHarness,
  patchedLookupHarness,
} from "./test-environments/index.js";

const benchmark = createLookupBenchmark();
const { tasks } = await benchmark.loadTasks({});
const france = tasks[0]!;

const listKeysOnMiss = patchedLookupHarness((draft) => {
  draft.errorRecovery.followUps = [
    {
      tools: ["lookup"],
      resultPattern: "^no such key",
      resultFlags: "",
      note: "There is no such key; the harness listed the keys:",
      calls: [{ tool: "dump", arguments: {} }],
      maxPerEpisode: 1,
    },
  ];
});

/** A missed lookup (the follow-up lists the keys), then the answer. */
const missThenAnswer = () =>
  runEpisode({
    task: france,
    benchmark,
    harness: listKeysOnMiss,
    policy: createScriptedPolicy(["lookup: atlantis", "answer: Paris"]),
    seed: 1,
  });

describe("harness-call occasions", () => {
  it("a follow-up's calls under the next view without the follow-up's text: the policy's own result alone", async () => {
    const trajectory = await missThenAnswer();
    expect(trajectory.steps[0]?.followUpFeedback).toMatch(/^There is no such key;[\s\S]*france=Paris/);
    const occasions = harnessCallOccasions(trajectory);
    expect(occasions).toHaveLength(1);
    expect(occasions[0]).toMatchObject({ step: 0, trigger: "follow-up", calls: [{ name: "dump" }] });
    const shown = trajectory.steps[1]?.view.messages ?? [];
    const own = occasions[0]?.view.messages ?? [];
    expect(own.slice(0, -1)).toEqual(shown.slice(0, -1));
    expect(own.at(-1)?.content).toBe("Error: no such key: atlantis");
    expect(shown.at(-1)?.content).not.toBe("Error: no such key: atlantis");
  });

  it("a check's calls under the view of the step that submitted; the base harness has none", async () => {
    const checked = patchedLookupHarness((draft) => {
      draft.verification = {
        enabled: true,
        prompt: "You are about to answer {answer}.",
        maxChecks: 1,
        calls: {
          captureTool: "lookup",
          capture: { source: "argument", argument: "key", pattern: "^(?<key>\\w+)$", flags: "" },
          calls: [{ tool: "lookup", arguments: { key: "{key}" } }],
        },
      };
    });
    const policy = createScriptedPolicy(["lookup: france", "answer: Lyon", "answer: Paris"]);
    const trajectory = await runEpisode({ task: france, benchmark, harness: checked, policy, seed: 1 });
    const occasions = harnessCallOccasions(trajectory);
    expect(occasions).toMatchObject([
      { step: 1, trigger: "check", calls: [{ name: "lookup", arguments: { key: "france" } }] },
    ]);
    expect(occasions[0]?.view).toEqual(trajectory.steps[1]?.view);
    const base = await runEpisode({
      task: france,
      benchmark,
      harness: lookupTextHarness,
      policy: createScriptedPolicy(["lookup: atlantis", "answer: Paris"]),
      seed: 1,
    });
    expect(harnessCallOccasions(base)).toEqual([]);
  });

  it("the prelude's calls under the first view without the prelude's message; without its message, none", async () => {
    const dumpFirst = patchedLookupHarness((draft) => {
      draft.context.prelude = {
        header: "Before you start, the harness listed the keys:",
        calls: [{ tool: "dump", arguments: {} }],
      };
    });
    const policy = createScriptedPolicy(["answer: Paris"]);
    const trajectory = await runEpisode({ task: france, benchmark, harness: dumpFirst, policy, seed: 1 });
    const shown = trajectory.steps[0]?.view.messages ?? [];
    expect(shown.at(-1)?.content).toMatch(
      /^Before you start, the harness listed the keys:[\s\S]*france=Paris/,
    );
    const occasions = harnessCallOccasions(trajectory);
    expect(occasions).toMatchObject([{ step: 0, trigger: "prelude", calls: [{ name: "dump" }] }]);
    expect(occasions[0]?.view.messages).toEqual(shown.slice(0, -1));
    const cut = structuredClone(trajectory);
    cut.steps[0]?.view.messages.pop();
    expect(harnessCallOccasions(cut)).toEqual([]);
  });

  it("a follow-up of the last step, or one whose text the next view no longer ends with, has no occasion", async () => {
    const trajectory = await missThenAnswer();
    expect(harnessCallOccasions({ steps: trajectory.steps.slice(0, 1) })).toEqual([]);
    const cut = structuredClone(trajectory);
    const last = cut.steps[1]?.view.messages.at(-1);
    if (last !== undefined) last.content = last.content.slice(0, 40);
    expect(harnessCallOccasions(cut)).toEqual([]);
  });
});
