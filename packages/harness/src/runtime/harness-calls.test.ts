import { InvalidInputError, trajectorySchema } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { readHarnessCalls, renderHarnessCall } from "../harness-call-text.js";
import { harnessHash } from "../harness-hash.js";
import { parseHarnessConfig } from "../parse-harness-config.js";
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

describe("harness-made calls", () => {
  it("a config without the new fields parses and hashes as before", () => {
    const copy = parseHarnessConfig(structuredClone(lookupTextHarness));
    expect(harnessHash(copy)).toBe(harnessHash(lookupTextHarness));
    expect(copy.context.prelude).toBeUndefined();
  });

  it("runs the prelude before the first step and shows it after the task, as harness calls", async () => {
    const config = patchedLookupHarness((draft) => {
      draft.context.prelude = {
        header: "The harness looked first:",
        calls: [{ tool: "lookup", arguments: { key: "{metadata.key}" } }],
      };
    });
    const policy = createScriptedPolicy(["answer: Paris"]);
    const trajectory = await runEpisode({ task: france, benchmark, harness: config, policy, seed: 1 });
    const first = policy.views[0]?.messages ?? [];
    expect(first.at(-1)).toEqual({
      role: "user",
      content: "The harness looked first:\n\n[harness ran lookup: france]\nParis",
    });
    expect(trajectory.success).toBe(true);
    expect(trajectory.steps).toHaveLength(1);
    expect(trajectory.steps[0]?.executed.map((entry) => entry.call.name)).toEqual(["submit"]);
    expect(trajectory.preludeCalls?.map((entry) => entry.result.content)).toEqual(["Paris"]);
    expect(trajectory.events.filter((event) => event.type === "harness-call")).toHaveLength(1);
    expect(() => trajectorySchema.parse(trajectory)).not.toThrow();
  });

  it("follows a matching result with a note naming the cause and the harness's own calls, at most maxPerEpisode times", async () => {
    const config = patchedLookupHarness((draft) => {
      draft.errorRecovery.followUps = [
        {
          tools: ["lookup"],
          resultPattern: "^no such key",
          resultFlags: "",
          capture: { source: "argument", argument: "key", pattern: "^(?<key>\\w+)$", flags: "" },
          note: "There is no key {key}; the harness listed the keys:",
          calls: [{ tool: "dump", arguments: {} }],
          maxPerEpisode: 1,
        },
      ];
    });
    const policy = createScriptedPolicy(["lookup: atlantis", "lookup: mu", "answer: Paris"]);
    const trajectory = await runEpisode({ task: france, benchmark, harness: config, policy, seed: 1 });
    const shown = policy.views[1]?.messages.at(-1)?.content ?? "";
    expect(shown).toMatch(
      /^Error: no such key: atlantis\n\nThere is no key atlantis; the harness listed the keys:\n\n\[harness ran dump: \{\}\]\nfrance=Paris/,
    );
    expect(trajectory.steps[0]?.executed.map((entry) => entry.call.name)).toEqual(["lookup"]);
    expect(trajectory.steps[0]?.harnessCalls?.map((entry) => entry.call.name)).toEqual(["dump"]);
    expect(trajectory.steps[1]?.harnessCalls).toBeUndefined();
    expect(policy.views[2]?.messages.at(-1)?.content).toBe("Error: no such key: mu");
    const split = readHarnessCalls(shown.slice(shown.indexOf("There")));
    expect(split.before).toBe("There is no key atlantis; the harness listed the keys:");
    expect(split.calls[0]).toMatchObject({ tool: "dump", argument: "{}" });
  });

  it("a follow-up with fromMatch waits for that many matching results, then fires at most maxPerEpisode times", async () => {
    const config = patchedLookupHarness((draft) => {
      draft.errorRecovery.followUps = [
        {
          tools: ["lookup"],
          resultPattern: "^no such key",
          resultFlags: "",
          note: "Two keys were missing; the harness listed the keys:",
          calls: [{ tool: "dump", arguments: {} }],
          maxPerEpisode: 1,
          fromMatch: 2,
        },
      ];
    });
    const replies = ["lookup: atlantis", "lookup: france", "lookup: mu", "lookup: lemuria", "answer: Paris"];
    const policy = createScriptedPolicy(replies);
    const trajectory = await runEpisode({ task: france, benchmark, harness: config, policy, seed: 1 });
    const fired = trajectory.steps.map((step) => step.harnessCalls?.length ?? 0);
    expect(fired).toEqual([0, 0, 1, 0, 0]);
    expect(policy.views[3]?.messages.at(-1)?.content).toMatch(
      /^Error: no such key: mu\n\nTwo keys were missing/,
    );
    expect(() =>
      parseHarnessConfig({
        ...config,
        errorRecovery: {
          ...config.errorRecovery,
          followUps: [{ ...config.errorRecovery.followUps?.[0], fromMatch: 0 }],
        },
      }),
    ).toThrow(/fromMatch/);
  });

  it("a follow-up whose capture does not match does not fire", async () => {
    const config = patchedLookupHarness((draft) => {
      draft.errorRecovery.followUps = [
        {
          resultPattern: "no such key",
          resultFlags: "",
          capture: { source: "result", pattern: "key: (?<key>\\d+)", flags: "" },
          note: "No such key.",
          calls: [{ tool: "lookup", arguments: { key: "{key}" } }],
          maxPerEpisode: 2,
        },
      ];
    });
    const policy = createScriptedPolicy(["lookup: atlantis", "answer: Paris"]);
    const trajectory = await runEpisode({ task: france, benchmark, harness: config, policy, seed: 1 });
    expect(trajectory.steps[0]?.harnessCalls).toBeUndefined();
    expect(policy.views[1]?.messages.at(-1)?.content).toBe("Error: no such key: atlantis");
  });

  it("a check runs its calls on the captures of the last matching policy call and shows what it found", async () => {
    const config = patchedLookupHarness((draft) => {
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
    const trajectory = await runEpisode({ task: france, benchmark, harness: config, policy, seed: 1 });
    expect(policy.views[2]?.messages.at(-1)?.content).toBe(
      "You are about to answer Lyon.\n\n[harness ran lookup: france]\nParis",
    );
    expect(trajectory.steps[1]?.executed).toEqual([]);
    expect(trajectory.steps[1]?.harnessCalls?.[0]?.result.content).toBe("Paris");
    expect(trajectory.success).toBe(true);
  });

  it("holds a non-terminal call that submitMatch counts as a submit, with captures from the held call itself", async () => {
    const config = patchedLookupHarness((draft) => {
      draft.verification = {
        enabled: true,
        prompt: "Held.",
        maxChecks: 1,
        submitMatch: { tool: "lookup", argument: "key", pattern: "^done-", flags: "" },
        calls: {
          captureTool: "lookup",
          capture: { source: "argument", argument: "key", pattern: "^done-(?<key>\\w+)$", flags: "" },
          calls: [{ tool: "lookup", arguments: { key: "{key}" } }],
        },
      };
    });
    const policy = createScriptedPolicy(["lookup: done-france", "lookup: done-france", "answer: Paris"]);
    const trajectory = await runEpisode({ task: france, benchmark, harness: config, policy, seed: 1 });
    expect(policy.views[1]?.messages.at(-1)?.content).toBe("Held.\n\n[harness ran lookup: france]\nParis");
    expect(trajectory.steps[0]?.executed).toEqual([]);
    expect(policy.views[2]?.messages.at(-1)?.content).toBe("Error: no such key: done-france");
  });

  it("rejects a harness call of a terminal tool before the episode starts", async () => {
    const config = patchedLookupHarness((draft) => {
      draft.context.prelude = { header: "", calls: [{ tool: "submit", arguments: { answer: "x" } }] };
    });
    const policy = createScriptedPolicy(["answer: Paris"]);
    await expect(runEpisode({ task: france, benchmark, harness: config, policy, seed: 1 })).rejects.toSatisfy(
      (error: unknown) =>
        InvalidInputError.isInstance(error) && /context\.prelude\.calls\.0\.tool/.test(JSON.stringify(error)),
    );
  });

  it("a macro step may use the task's metadata", async () => {
    const config = patchedLookupHarness((draft) => {
      draft.tools.macros = [
        {
          name: "own",
          description: "Look up this task's key.",
          parameters: { type: "object", properties: {} },
          steps: [{ tool: "lookup", arguments: { key: "{metadata.key}" } }],
        },
      ];
      if (draft.actionFormat.kind === "text")
        draft.actionFormat.rules.unshift({ tool: "own", pattern: "^own$", flags: "m", arguments: {} });
    });
    const policy = createScriptedPolicy(["own", "answer: Paris"]);
    const trajectory = await runEpisode({ task: france, benchmark, harness: config, policy, seed: 1 });
    expect(trajectory.steps[0]?.executed[0]?.call.arguments).toEqual({ key: "france" });
  });

  it("renders and reads back a harness call", () => {
    const text = renderHarnessCall("execute_sql", { query: "SELECT 1" }, "[(1,)]");
    expect(readHarnessCalls(`note\n\n${text}`)).toEqual({
      before: "note",
      calls: [{ tool: "execute_sql", argument: "SELECT 1", result: "[(1,)]" }],
    });
  });
});
