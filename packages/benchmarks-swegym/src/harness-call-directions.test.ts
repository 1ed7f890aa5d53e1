import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createToolExposure, parseHarnessConfig, runEpisode } from "@hs/harness";
import type { HarnessConfig, Task } from "@hs/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedPolicy } from "./__fixtures__/scripted-policy.js";
import { createSweGym, graderInstance, type SweGym } from "./create-swegym.js";
import { sweGymLibrary } from "./evolution-library.js";
import {
  fruitlessProbePattern,
  harnessRankedTraceCommand,
  harnessTestCommand,
  harnessTraceCommand,
  harnessValuesTraceCommand,
  sweGymHarnessCallLibrary,
} from "./harness-call-directions.js";
import { rankedLinesHeader } from "./statement/ranked-trace.js";
import { readTraceOutput, traceHeader } from "./statement/statement-trace.js";
import { valuesLinesHeader } from "./statement/values-trace.js";

const cache = mkdtempSync(join(tmpdir(), "hs-swegym-directions-cache-"));
const scratch = mkdtempSync(join(tmpdir(), "hs-swegym-directions-scratch-"));
let benchmark: SweGym;
let task: Task;

beforeAll(async () => {
  benchmark = await createSweGym({
    cacheDirectory: cache,
    scratchDirectory: scratch,
    commandTimeLimitMs: 20_000,
  });
  task = (await benchmark.loadTasks({ split: "train" })).tasks[0] as Task;
}, 120_000);
afterAll(() => {
  rmSync(cache, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

const bash = (command: string) => `THOUGHT: next\n\n\`\`\`bash\n${command}\n\`\`\``;
const submit = bash("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached");

/** What the policy was shown holds no failing test's name and no line the test patch adds. */
function expectNothingOfTheGrader(
  task: Task,
  views: readonly { messages: readonly { content: string }[] }[],
) {
  const instance = graderInstance(benchmark, task.id);
  if (instance === undefined) throw new Error("no grader instance");
  const shown = views.flatMap((view) => view.messages.map((message) => message.content)).join("\n");
  for (const test of instance.FAIL_TO_PASS) expect(shown).not.toContain(test.split("::").at(-1) as string);
  const added = instance.test_patch
    .split("\n")
    .filter((line) => line.startsWith("+") && !line.startsWith("+++") && line.trim().length > 12)
    .map((line) => line.slice(1).trim());
  expect(added.length).toBeGreaterThan(0);
  for (const line of added) expect(shown).not.toContain(line);
}

function sibling(patch: (config: HarnessConfig) => void): HarnessConfig {
  const base = benchmark.presets["mini-swe-agent"];
  if (base === undefined) throw new Error("missing preset");
  const config = structuredClone(base);
  patch(config);
  return parseHarnessConfig(config);
}

/** The verification section that runs a library check once before a submit. */
function verificationOf(
  check: (typeof sweGymHarnessCallLibrary.checkCalls)[number],
): HarnessConfig["verification"] {
  return {
    enabled: true,
    prompt: check.prompt,
    maxChecks: 1,
    calls: check.calls,
    ...(check.submitMatch === undefined ? {} : { submitMatch: check.submitMatch }),
  };
}

/** The sibling with the library's prelude, fruitless-probe follow-up and check that run `command`. */
function everyMoment(command: string): HarnessConfig {
  const runs = (entry: unknown) => JSON.stringify(entry).includes(JSON.stringify(command));
  const check = sweGymHarnessCallLibrary.checkCalls.find(runs);
  const prelude = sweGymHarnessCallLibrary.preludes.find(runs);
  const followUp = sweGymHarnessCallLibrary.followUps.find(
    (entry) => runs(entry) && entry.resultPattern === fruitlessProbePattern,
  );
  if (check === undefined || prelude === undefined || followUp === undefined)
    throw new Error("the library lacks an entry running the command");
  return sibling((draft) => {
    draft.context.prelude = prelude;
    draft.errorRecovery.followUps = [followUp];
    draft.verification = verificationOf(check);
  });
}

const fruitless = bash(
  "printf 'probed pkg/a.py:3 with 1 rewrites\\noriginal: x\\n  [0] => 1\\nrewrite: y\\n  = the original results\\n'",
);

describe("SWE-Gym harness-call directions", () => {
  it("the library offers them to the operators", () => {
    expect(sweGymLibrary.preludes).toBe(sweGymHarnessCallLibrary.preludes);
    expect(sweGymLibrary.macros.map((macro) => macro.name)).toContain("run_failing_tests");
  });

  it("the prelude runs the tests, and a failing test's traceback is followed by the lines it names", {
    timeout: 120_000,
  }, async () => {
    const config = sibling((draft) => {
      draft.context.prelude = {
        header: "Before you start, the harness ran the tests (the first failure, with its file and line):",
        calls: [{ tool: "bash", arguments: { command: harnessTestCommand } }],
      };
      draft.errorRecovery.followUps = [sweGymHarnessCallLibrary.followUps[0]!];
    });
    const probe =
      "printf 'def test_probe():\\n    assert 1 == 2\\n' > test_hs_probe.py && python3 -m pytest -x -q -p no:cacheprovider --tb=short test_hs_probe.py";
    const policy = scriptedPolicy([bash(probe), submit]);
    const trajectory = await runEpisode({ task, benchmark, harness: config, policy, seed: 1 });
    const prelude = policy.views[0]?.messages.at(-1)?.content ?? "";
    expect(prelude).toMatch(/^Before you start, the harness ran the tests/);
    expect(prelude).toMatch(
      /\[harness ran bash: \{ timeout 20 python3 -m pytest[\s\S]*<returncode>\d+<\/returncode>/,
    );
    const shown = policy.views[1]?.messages.at(-1)?.content ?? "";
    const frame = /The traceback ends at ([\w./-]+\.py):(\d+); the harness opened those lines:/.exec(shown);
    expect(frame).not.toBeNull();
    expect(shown).toContain(`[harness ran bash: nl -ba '${frame?.[1]}'`);
    expect(frame?.slice(1)).toEqual(["test_hs_probe.py", "2"]);
    expect(shown).toMatch(/\n\s+2\t {4}assert 1 == 2/);
    expect(trajectory.steps[0]?.harnessCalls).toHaveLength(1);
    expect(trajectory.preludeCalls).toHaveLength(1);
  });

  it("the check holds a bash submission, runs the tests and shows them before accepting the next", {
    timeout: 120_000,
  }, async () => {
    const check = sweGymHarnessCallLibrary.checkCalls[1]!;
    const config = sibling((draft) => {
      draft.verification = verificationOf(check);
    });
    const policy = scriptedPolicy([submit, submit]);
    const trajectory = await runEpisode({ task, benchmark, harness: config, policy, seed: 1 });
    expect(policy.views[1]?.messages.at(-1)?.content).toMatch(
      /^Before submitting, the harness ran the tests \(below\)[\s\S]*\[harness ran bash: \{ timeout 20 python3 -m pytest/,
    );
    expect(trajectory.steps[0]?.executed).toEqual([]);
    expect(trajectory.endReason).toBe("submitted");
  });

  it("the trace prelude runs the statement's calls and shows the repository lines they executed, nothing of the grader's", {
    timeout: 120_000,
  }, async () => {
    const check = sweGymHarnessCallLibrary.checkCalls[0]!;
    const config = sibling((draft) => {
      draft.context.prelude = sweGymHarnessCallLibrary.preludes[0]!;
      draft.errorRecovery.followUps = [...sweGymHarnessCallLibrary.followUps];
      draft.verification = verificationOf(check);
    });
    const policy = scriptedPolicy([submit, submit]);
    await runEpisode({ task, benchmark, harness: config, policy, seed: 1 });
    const prelude = policy.views[0]?.messages.at(-1)?.content ?? "";
    expect(prelude).toMatch(
      /^Before you start, the harness ran the calls the issue writes under a line tracer/,
    );
    const calls = task.metadata.statementCalls as string[];
    expect(calls.length).toBeGreaterThan(0);
    expect(prelude).toContain(`[0] ${calls[0]}`);
    const reading = readTraceOutput(prelude);
    expect(reading?.outcomes).toHaveLength(calls.length);
    expect(reading?.lines.length).toBeGreaterThan(0);
    for (const line of reading?.lines ?? []) expect(line.file).not.toMatch(/(^|\/)tests?\/|test_/);
    const checked = policy.views[1]?.messages.at(-1)?.content ?? "";
    expect(checked).toMatch(/^Before submitting, the harness ran the calls the issue writes/);
    expect(checked).toContain(traceHeader);
    expectNothingOfTheGrader(task, policy.views);
  });

  it("an edit that breaks a file is named by file and line, and the edit is followed by the calls again", {
    timeout: 120_000,
  }, async () => {
    const config = sibling((draft) => {
      draft.errorRecovery.followUps = sweGymHarnessCallLibrary.followUps.slice(3, 5);
    });
    const file = `${String(task.metadata.repo).split("/").at(-1)?.split("-")[0] ?? ""}/hs_broken.py`;
    const breakFile = bash(
      `printf 'x = 1\\ndef oops(:\\n    pass\\n' > ${file} && echo "edited ${file}:2: ok" && python3 -c 'import ${file.replace(/\/.*$/, "")}.hs_broken'`,
    );
    const policy = scriptedPolicy([breakFile, submit]);
    await runEpisode({ task, benchmark, harness: config, policy, seed: 1 });
    const shown = policy.views[1]?.messages.at(-1)?.content ?? "";
    expect(shown).toMatch(
      new RegExp(`The file no longer parses \\(SyntaxError at [^)]*${file.replace(".", "\\.")}:2\\)`),
    );
    expect(shown).toMatch(/\n\s+2\tdef oops\(:/);
    expect(shown).toContain("After the edit, the harness ran the calls the issue writes again:");
    expect(shown).toContain(traceHeader);
  });

  it("the trace_statement macro runs the trace with the task's calls filled in", () => {
    const macro = sweGymLibrary.macros.find((entry) => entry.name === "trace_statement");
    if (macro === undefined) throw new Error("no trace_statement macro");
    const exposure = createToolExposure(
      { expose: null, macros: [macro] },
      [{ name: "bash", description: "run", parameters: { type: "object", properties: {} } }],
      task.metadata,
    );
    const [call] = exposure.resolve({ id: "1", name: "trace_statement", arguments: {} }) ?? [];
    const command = String(call?.arguments.command);
    expect(command).toBe(
      harnessTraceCommand.replace("{metadata.statementCalls}", JSON.stringify(task.metadata.statementCalls)),
    );
    expect(command).toContain(`calls = ${JSON.stringify(task.metadata.statementCalls)}`);
  });

  it("the ranked trace: a prelude, after a probe that changed no value, and before a submit; nothing of the grader's", {
    timeout: 180_000,
  }, async () => {
    const config = everyMoment(harnessRankedTraceCommand);
    const policy = scriptedPolicy([fruitless, submit, submit]);
    const trajectory = await runEpisode({ task, benchmark, harness: config, policy, seed: 1 });
    expect(trajectory.endReason).toBe("submitted");
    const shownAt = (index: number) => policy.views[index]?.messages.at(-1)?.content ?? "";
    const [prelude, followed, checked] = [shownAt(0), shownAt(1), shownAt(2)];
    for (const shown of [prelude, followed, checked]) {
      expect(shown).toContain(rankedLinesHeader);
      expect(readTraceOutput(shown)?.lines.length).toBeGreaterThan(0);
    }
    expect(prelude).toMatch(
      /^Before you start, the harness ran the calls the issue writes under a line tracer and the repository's tests/,
    );
    expect(followed).toContain("No rewrite of the probed lines changed what the issue's calls give");
    expect(checked).toMatch(
      /^Before submitting, the harness ran the calls the issue writes on the working tree and ranked/,
    );
    expectNothingOfTheGrader(task, policy.views);
  });

  it("the values trace: a prelude, after a probe that changed no value, and before a submit; nothing of the grader's", {
    timeout: 180_000,
  }, async () => {
    // a train task whose calls read a module-level table (a unit's factor), so the values are listed
    const tasks = (await benchmark.loadTasks({ split: "train" })).tasks;
    const table = tasks.find((entry) => entry.metadata.instanceId === "harness-s__unitconv-1") as Task;
    const policy = scriptedPolicy([fruitless, fruitless, fruitless, submit, submit]);
    const config = everyMoment(harnessValuesTraceCommand);
    const trajectory = await runEpisode({ task: table, benchmark, harness: config, policy, seed: 1 });
    expect(trajectory.endReason).toBe("submitted");
    const shownAt = (index: number) => policy.views[index]?.messages.at(-1)?.content ?? "";
    // the follow-up waits for the third fruitless probe
    expect([shownAt(1), shownAt(2)].some((shown) => shown.includes(valuesLinesHeader))).toBe(false);
    for (const shown of [shownAt(0), shownAt(3), shownAt(4)]) {
      const values = shown.slice(shown.indexOf(valuesLinesHeader));
      expect(shown).toContain(valuesLinesHeader);
      expect(values).toMatch(/^unitconv\/units\.py:\d+ x0\tUNITS = \{$/m);
      expect(readTraceOutput(shown)?.lines.length).toBeGreaterThan(1);
    }
    expect(shownAt(3)).toContain("the bug may be in a value built when a module is imported");
    expectNothingOfTheGrader(table, policy.views);
  });

  it("the fruitless-probe follow-up fires only when no probed rewrite gave a call a value", () => {
    const pattern = new RegExp(fruitlessProbePattern, "m");
    const none =
      "probed a/b.py:3 with 2 rewrites\noriginal: x\n  [0] => 1\nrewrite: y\n  = the original's results\nrewrite: z\n  [0] raised E: q\n";
    const found = "probed a/b.py:2 with 1 rewrites\noriginal: x\n  [0] => 1\nrewrite: w\n  [0] => 2\n";
    expect(pattern.test(`<output>\n${none}`)).toBe(true);
    expect(pattern.test(`<output>\n${found}${none}`)).toBe(false);
    expect(pattern.test(`<output>\n${none}${found}`)).toBe(false);
    expect(pattern.test("<output>\nedited a/b.py:3: x -> y")).toBe(false);
  });
});
