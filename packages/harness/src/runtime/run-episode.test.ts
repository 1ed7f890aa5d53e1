import { describe, expect, it } from "vitest";
import { createHarnessConfig, parseHarnessConfig } from "../parse-harness-config.js";
import {
  createLookupBenchmark,
  createScriptedPolicy,
  lookupTextHarness,
  patchedLookupHarness,
} from "../test-environments/index.js";
import { runEpisode } from "./run-episode.js";

const benchmark = createLookupBenchmark();
const { tasks } = await benchmark.loadTasks({});
const france = tasks[0]!;

describe("runEpisode", () => {
  it("runs a text-protocol episode to a graded submit", async () => {
    const policy = createScriptedPolicy(["lookup: france", "answer: Paris"]);
    const trajectory = await runEpisode({
      task: france,
      benchmark,
      harness: lookupTextHarness,
      policy,
      seed: 1,
    });
    expect(trajectory.endReason).toBe("submitted");
    expect(trajectory.success).toBe(true);
    expect(trajectory.steps).toHaveLength(2);
    expect(trajectory.steps[0]?.parsed?.[0]).toMatchObject({ name: "lookup", arguments: { key: "france" } });
    expect(policy.views[1]?.messages.at(-1)).toEqual({ role: "user", content: "Paris" });
    expect(trajectory.gradeDetails).toEqual({ submitted: "Paris" });
  });

  it("never shows the hidden answer to the policy", async () => {
    const policy = createScriptedPolicy(["answer: Lyon"]);
    const trajectory = await runEpisode({
      task: france,
      benchmark,
      harness: lookupTextHarness,
      policy,
      seed: 1,
    });
    expect(trajectory.success).toBe(false);
    expect(JSON.stringify(policy.views)).not.toContain("Paris");
  });

  it("truncates long observations and records the event", async () => {
    const config = patchedLookupHarness((draft) => {
      draft.context.truncateObservationChars = 20;
      draft.context.truncationMarker = "[CUT]";
    });
    const policy = createScriptedPolicy(["dump", "answer: Paris"]);
    const trajectory = await runEpisode({ task: france, benchmark, harness: config, policy, seed: 1 });
    const shown = policy.views[1]?.messages.at(-1)?.content ?? "";
    expect(shown).toHaveLength(25);
    expect(shown.endsWith("[CUT]")).toBe(true);
    expect(trajectory.events.map((event) => event.type)).toContain("truncated");
    expect(trajectory.steps[0]?.executed[0]?.result.content.length).toBeGreaterThan(100);
  });

  it("re-prompts a malformed action, then fails when re-prompts run out", async () => {
    const config = patchedLookupHarness((draft) => {
      draft.errorRecovery.maxReprompts = 1;
      draft.errorRecovery.malformedActionTemplate = "FORMAT! ({reason})";
    });
    const policy = createScriptedPolicy(["I think it is Paris", "Paris, surely"]);
    const trajectory = await runEpisode({ task: france, benchmark, harness: config, policy, seed: 1 });
    expect(policy.views[1]?.messages.at(-1)?.content).toBe(
      "FORMAT! (no action in the expected format was found)",
    );
    expect(trajectory.endReason).toBe("reprompts-exhausted");
    expect(trajectory.success).toBe(false);
    expect(trajectory.events.map((event) => event.type)).toEqual([
      "malformed-action",
      "reprompted",
      "malformed-action",
    ]);
  });

  it("recovers after a re-prompt and resets the count", async () => {
    const config = patchedLookupHarness((draft) => {
      draft.errorRecovery.maxReprompts = 1;
    });
    const policy = createScriptedPolicy(["hmm", "lookup: france", "hmm", "answer: Paris"]);
    const trajectory = await runEpisode({ task: france, benchmark, harness: config, policy, seed: 1 });
    expect(trajectory.success).toBe(true);
  });

  it("stops at the step budget", async () => {
    const config = patchedLookupHarness((draft) => {
      draft.budget.maxSteps = 3;
    });
    const policy = createScriptedPolicy(["lookup: france"]);
    const trajectory = await runEpisode({ task: france, benchmark, harness: config, policy, seed: 1 });
    expect(trajectory.steps).toHaveLength(3);
    expect(trajectory.endReason).toBe("budget");
    expect(trajectory.events.at(-1)?.type).toBe("budget-hit");
    expect(trajectory.success).toBe(false);
  });

  it("stops at the output budget", async () => {
    const config = patchedLookupHarness((draft) => {
      draft.budget.maxOutputChars = 20;
    });
    const policy = createScriptedPolicy(["lookup: france", "lookup: france again and again"]);
    const trajectory = await runEpisode({ task: france, benchmark, harness: config, policy, seed: 1 });
    expect(trajectory.endReason).toBe("output-budget");
    expect(trajectory.steps).toHaveLength(2);
  });

  it("shows hints where configured", async () => {
    const inTask = patchedLookupHarness((draft) => {
      draft.prompt.hints = ["Capitals are case sensitive."];
    });
    const policy = createScriptedPolicy(["answer: Paris"]);
    await runEpisode({ task: france, benchmark, harness: inTask, policy, seed: 1 });
    expect(policy.views[0]?.messages.at(-1)?.content).toContain("- Capitals are case sensitive.");
    const inSystem = patchedLookupHarness((draft) => {
      draft.prompt.hints = ["Capitals are case sensitive."];
      draft.prompt.hintPlacement = "system";
    });
    const second = createScriptedPolicy(["answer: Paris"]);
    await runEpisode({ task: france, benchmark, harness: inSystem, policy: second, seed: 1 });
    expect(second.views[0]?.messages[0]?.content).toContain("Capitals are case sensitive.");
    expect(second.views[0]?.messages.at(-1)?.content).not.toContain("Capitals");
  });

  it("leaves out an empty system message", async () => {
    const config = patchedLookupHarness((draft) => {
      draft.prompt.system = "";
      draft.prompt.examples = [
        { role: "user", content: "Rules: answer with actions." },
        { role: "assistant", content: "Ok." },
      ];
    });
    const policy = createScriptedPolicy(["answer: Paris"]);
    await runEpisode({ task: france, benchmark, harness: config, policy, seed: 1 });
    expect(policy.views[0]?.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
  });

  it("keeps only the last turns, pinning the task when asked", async () => {
    const pinned = patchedLookupHarness((draft) => {
      draft.context.keepLastTurns = 1;
    });
    const policy = createScriptedPolicy(["lookup: peru", "lookup: japan", "answer: Paris"]);
    const trajectory = await runEpisode({ task: france, benchmark, harness: pinned, policy, seed: 1 });
    const last = policy.views[2]!.messages;
    expect(last.map((message) => message.content)).toEqual([
      last[0]!.content,
      france.instruction,
      "lookup: japan",
      "Tokyo",
    ]);
    expect(trajectory.events.map((event) => event.type)).toContain("context-dropped");
    const unpinned = patchedLookupHarness((draft) => {
      draft.context.keepLastTurns = 1;
      draft.context.pinTask = false;
    });
    const second = createScriptedPolicy(["lookup: peru", "lookup: japan", "answer: Paris"]);
    await runEpisode({ task: france, benchmark, harness: unpinned, policy: second, seed: 1 });
    expect(second.views[2]!.messages.map((message) => message.role)).toEqual(["system", "assistant", "user"]);
  });

  it("renders tool errors with the error-recovery template", async () => {
    const config = patchedLookupHarness((draft) => {
      draft.errorRecovery.toolErrorTemplate = "The tool {tool} failed: {error}.";
      draft.errorRecovery.toolErrorSuffix = " Try a lower-case key.";
    });
    const policy = createScriptedPolicy(["lookup: Atlantis", "answer: Paris"]);
    const trajectory = await runEpisode({ task: france, benchmark, harness: config, policy, seed: 1 });
    expect(policy.views[1]?.messages.at(-1)?.content).toBe(
      "The tool lookup failed: no such key: Atlantis. Try a lower-case key.",
    );
    expect(trajectory.events.map((event) => event.type)).toContain("tool-error");
  });

  it("adds the empty-result note only after results that match its pattern", async () => {
    const config = patchedLookupHarness((draft) => {
      draft.errorRecovery.emptyResult = { pattern: "^Tokyo$", suffix: "\nThat is not France." };
    });
    const policy = createScriptedPolicy(["lookup: japan", "lookup: france", "answer: Paris"]);
    await runEpisode({ task: france, benchmark, harness: config, policy, seed: 1 });
    expect(policy.views[1]?.messages.at(-1)?.content).toBe("Tokyo\nThat is not France.");
    expect(policy.views[2]?.messages.at(-1)?.content).toBe("Paris");
    expect(() =>
      parseHarnessConfig({
        ...config,
        errorRecovery: { ...config.errorRecovery, emptyResult: { pattern: "([", suffix: "" } },
      }),
    ).toThrow(/emptyResult\.pattern/);
  });

  it("holds the first submit back for verification", async () => {
    const config = patchedLookupHarness((draft) => {
      draft.verification = { enabled: true, prompt: "You answered {answer}. Are you sure?", maxChecks: 1 };
    });
    const policy = createScriptedPolicy(["answer: Lyon", "answer: Paris"]);
    const trajectory = await runEpisode({ task: france, benchmark, harness: config, policy, seed: 1 });
    expect(policy.views[1]?.messages.at(-1)?.content).toBe("You answered Lyon. Are you sure?");
    expect(trajectory.steps[0]?.executed).toEqual([]);
    expect(trajectory.success).toBe(true);
  });

  it("exposes a subset of tools and expands macros", async () => {
    const config = createHarnessConfig({
      id: "lookup-macro",
      tools: {
        expose: ["submit"],
        macros: [
          {
            name: "capital_of",
            description: "Look up a capital.",
            parameters: { type: "object", properties: { country: { type: "string" } } },
            steps: [{ tool: "lookup", arguments: { key: "{country}" } }],
          },
        ],
      },
    });
    const call = (name: string, args: Record<string, unknown>) => ({
      content: "",
      toolCalls: [{ id: name, name, arguments: args }],
      logprob: null,
    });
    const policy = createScriptedPolicy([
      call("lookup", { key: "france" }),
      call("capital_of", { country: "france" }),
      call("submit", { answer: "Paris" }),
    ]);
    const trajectory = await runEpisode({ task: france, benchmark, harness: config, policy, seed: 1 });
    expect(policy.views[0]?.tools.map((tool) => tool.name)).toEqual(["submit", "capital_of"]);
    expect(policy.views[1]?.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: "lookup" });
    expect(policy.views[1]?.messages.at(-1)?.content).toContain("not available");
    expect(trajectory.steps[1]?.executed[0]?.call).toMatchObject({
      name: "lookup",
      arguments: { key: "france" },
    });
    expect(trajectory.events.map((event) => event.type)).toEqual(["tool-hidden", "macro"]);
    expect(trajectory.success).toBe(true);
  });

  it("gives the same trajectory for the same seed", async () => {
    const countries = ["france", "peru", "japan", "kenya"];
    const seeded = () =>
      createScriptedPolicy([
        (_, seed) => `lookup: ${countries[seed % 4]}`,
        (_, seed) => `answer: ${seed % 2 ? "Paris" : "Lima"}`,
      ]);
    const strip = (trajectory: Awaited<ReturnType<typeof runEpisode>>) => ({
      ...trajectory,
      timings: null,
      steps: trajectory.steps.map((step) => ({
        ...step,
        policyMs: 0,
        environmentMs: 0,
        executed: step.executed.map((entry) => ({ ...entry, result: { ...entry.result, elapsedMs: 0 } })),
      })),
    });
    const first = await runEpisode({
      task: france,
      benchmark,
      harness: lookupTextHarness,
      policy: seeded(),
      seed: 7,
    });
    const second = await runEpisode({
      task: france,
      benchmark,
      harness: lookupTextHarness,
      policy: seeded(),
      seed: 7,
    });
    const other = await runEpisode({
      task: france,
      benchmark,
      harness: lookupTextHarness,
      policy: seeded(),
      seed: 8,
    });
    expect(strip(second)).toEqual(strip(first));
    expect(strip(other)).not.toEqual(strip(first));
  });

  it("ends with an error and closes the environment when the policy throws", async () => {
    const local = createLookupBenchmark();
    const policy = createScriptedPolicy([
      "lookup: france",
      () => {
        throw new Error("backend down");
      },
    ]);
    const trajectory = await runEpisode({
      task: france,
      benchmark: local,
      harness: lookupTextHarness,
      policy,
      seed: 1,
    });
    expect(trajectory.endReason).toBe("error");
    expect(trajectory.error).toContain("backend down");
    expect(trajectory.steps).toHaveLength(1);
    expect(local.closed).toBe(1);
  });

  it("rejects when cancelled and still closes the environment", async () => {
    const local = createLookupBenchmark();
    const controller = new AbortController();
    const policy = createScriptedPolicy([
      () => {
        controller.abort();
        return "lookup: france";
      },
    ]);
    await expect(
      runEpisode({
        task: france,
        benchmark: local,
        harness: lookupTextHarness,
        policy,
        seed: 1,
        signal: controller.signal,
      }),
    ).rejects.toMatchObject({ name: "HarnessSCancelledError" });
    expect(local.closed).toBe(1);
  });

  it("rejects an invalid harness config naming the field path", () => {
    const config = structuredClone(lookupTextHarness) as unknown as { context: { keepLastTurns: unknown } };
    config.context.keepLastTurns = -2;
    expect(() => parseHarnessConfig(config, { file: "sibling.json" })).toThrow(
      /sibling\.json, field "context\.keepLastTurns"/,
    );
    expect(() => createHarnessConfig({ id: "x", tools: { expose: ["nope"], macros: [] } })).not.toThrow();
  });

  it("rejects a harness that exposes a tool the environment does not have", async () => {
    const local = createLookupBenchmark();
    const config = createHarnessConfig({ id: "bad", tools: { expose: ["drop_table"], macros: [] } });
    await expect(
      runEpisode({
        task: france,
        benchmark: local,
        harness: config,
        policy: createScriptedPolicy(["x"]),
        seed: 1,
      }),
    ).rejects.toThrow('field "tools.expose.0"');
    expect(local.closed).toBe(1);
  });
});
