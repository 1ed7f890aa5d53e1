import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  harnessRankedTraceCommand,
  rankedTraceCommand,
  readTraceOutput,
  traceStatementCommand,
} from "@hs/benchmarks-swegym";
import { renderHarnessCall } from "@hs/harness";
import { decisionProbability, harnessCallCredit, rescueUpdate } from "@hs/learner-embedded";
import { createEmbeddedPolicy, type EmbeddedPolicy } from "@hs/policy-embedded";
import type { PolicyView, TrajectoryStep } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { fixtureView, viewAfter } from "./__fixtures__/views.js";
import { featureIndex, grammarTuning } from "./features.js";
import { probeCandidates, probeWindow } from "./probe-step.js";
import { probeVerdict, promising } from "./probe-verdict.js";
import { type ObservedProbe, readView } from "./read-view.js";
import { createSweGymGrammar } from "./swegym-grammar.js";
import type { EditLine, ViewContext } from "./view-context.js";

const grammar = createSweGymGrammar();
const listed = viewAfter(fixtureView("exprcalc-8-text"), 1);
const repository = mkdtempSync(join(tmpdir(), "hs-grammar-ranked-"));
afterAll(() => rmSync(repository, { recursive: true, force: true }));
cpSync(join(import.meta.dirname, "..", "..", "benchmarks-swegym", "data", "repos", "exprcalc"), repository, {
  recursive: true,
});
const calls = JSON.stringify(readView(listed).terms.expressions);

/** The command's real output over the bundled exprcalc, as a call the harness ran. */
function harnessCall(command: string): { call: string; output: string } {
  const output = execFileSync("bash", ["-c", command], { cwd: repository, encoding: "utf8" });
  const observation = `<returncode>0</returncode>\n<output>\n${output.trimEnd()}\n</output>`;
  return { call: renderHarnessCall("bash", { command }, observation), output };
}

/** The listed view with a command the harness ran after the listing. */
function withHarnessCall(command: string): { view: PolicyView; output: string } {
  const { call, output } = harnessCall(command);
  const messages = listed.messages.map((message, index) =>
    index === listed.messages.length - 1 ? { ...message, content: `${message.content}\n\n${call}` } : message,
  );
  return { view: { ...listed, messages }, output };
}

/** The task alone, then a prelude: the harness ran `command` before the first step. */
function withPrelude(command: string): { view: PolicyView; output: string } {
  const task = viewAfter(fixtureView("exprcalc-8-text"), 0);
  const { call, output } = harnessCall(command);
  return { view: { ...task, messages: [...task.messages, { role: "user", content: call }] }, output };
}

const ranked = withHarnessCall(rankedTraceCommand(calls));
const plain = withHarnessCall(traceStatementCommand(calls));

function options(view: PolicyView, chosen: readonly string[]) {
  const step = grammar.next(view, chosen);
  if (step.done) throw new Error("no decision");
  return step.decision.options;
}

describe("a ranked trace's places reach the lines and regions it lists", () => {
  it("scores the first listed line 1 and later ones less; a plain trace ranks nothing", () => {
    const lines = readTraceOutput(ranked.output)?.lines ?? [];
    expect(lines.length).toBeGreaterThan(3);
    const read = readView(ranked.view);
    const score = (index: number) => read.ranked.get(`${lines[index]?.file}:${lines[index]?.line}`);
    expect(score(0)).toBe(1);
    expect(score(1)).toBeLessThan(1);
    expect(score(2)).toBeLessThan(score(1) ?? 0);
    expect(readView(plain.view).ranked.size).toBe(0);
  });

  it("the region around the first ranked line carries `region-ranked` 1; under the plain trace none does", () => {
    const first = readTraceOutput(ranked.output)?.lines[0];
    const at = `at:${first?.file}:${first?.line}`;
    const rankedOf = (view: PolicyView) =>
      options(view, ["kind:show"]).map((option) => [
        option.label,
        option.features[featureIndex.get("region-ranked") ?? -1],
      ]);
    expect(rankedOf(ranked.view)).toContainEqual([at, 1]);
    expect(rankedOf(plain.view).every(([, value]) => value === 0)).toBe(true);
  });
});

describe("the ranked trace as the policy's own decision under the base harness", () => {
  const task = viewAfter(fixtureView("exprcalc-8-text"), 0);
  const prelude = withPrelude(rankedTraceCommand(calls));
  const command = harnessRankedTraceCommand.replace("{metadata.statementCalls}", calls);

  /** The task view after the policy ran `command` as its first action. */
  function ranAsFirstAction(output: string): PolicyView {
    const observation = `<returncode>0</returncode>\n<output>\n${output.trimEnd()}\n</output>`;
    return {
      ...task,
      messages: [
        ...task.messages,
        { role: "assistant", content: `THOUGHT: trace\n\n\`\`\`bash\n${command}\n\`\`\`` },
        { role: "user", content: observation },
      ],
    };
  }

  it("`trace:ranked` writes the ranked-trace prelude's own command, and its output ranks the same lines", () => {
    const step = grammar.next(task, ["kind:trace", "trace:ranked"]);
    expect(step.done && step.toolCalls?.[0]?.arguments.command).toBe(command);
    const plainStep = grammar.next(task, ["kind:trace", "trace:plain"]);
    expect(plainStep.done && plainStep.toolCalls?.[0]?.arguments.command).toBe(traceStatementCommand(calls));
    const own = readView(ranAsFirstAction(prelude.output)).ranked;
    expect(own.size).toBeGreaterThan(3);
    expect([...own]).toEqual([...readView(prelude.view).ranked]);
  });

  it("one update on a rescue that had the ranked prelude raises tracing, and tracing ranked, under the base view", async () => {
    const rescued = {
      ...{ index: 0, view: prelude.view, action: { content: "", logprob: null }, parsed: [], executed: [] },
      ...{ feedback: "", events: [], policyMs: 0, environmentMs: 0 },
    } satisfies TrajectoryStep;
    const preludeCalls = [
      {
        call: { id: "prelude.0", name: "bash", arguments: { command } },
        result: { content: prelude.output, isError: false, done: false },
      },
    ];
    const { before, after } = await rescueUpdate(
      grammar,
      [
        { view: prelude.view, labels: ["kind:explore"], advantage: 1 },
        { view: task, labels: ["kind:explore"], advantage: -1 },
      ],
      { creditedSteps: (policy) => harnessCallCredit(policy)({ steps: [rescued], preludeCalls }) },
    );
    const tracing = (policy: EmbeddedPolicy) => decisionProbability(policy, grammar, task, [], "kind:trace");
    const ranking = (policy: EmbeddedPolicy) =>
      decisionProbability(policy, grammar, task, ["kind:trace"], "trace:ranked");
    expect(tracing(after)).toBeGreaterThan(tracing(before) * 1.05);
    expect(ranking(after)).toBeGreaterThan(ranking(before) + 0.01);
  });
});

describe("the trace within training's reach", () => {
  it("after the listing the untrained policy traces now and then (1-10%), and its first choice stays the designer's next step", async () => {
    const policy = await createEmbeddedPolicy({ grammar, seed: 0 });
    const tracing = decisionProbability(policy, grammar, listed, [], "kind:trace");
    const step = grammar.next(listed, []);
    if (step.done) throw new Error("no decision");
    const probabilities = step.decision.options.map((option) =>
      decisionProbability(policy, grammar, listed, [], option.label),
    );
    const greedy = step.decision.options[probabilities.indexOf(Math.max(...probabilities))]?.label;
    policy.dispose();
    expect(tracing).toBeGreaterThan(0.01);
    expect(tracing).toBeLessThan(0.1);
    expect(greedy).not.toBe("kind:trace");
  });
});

describe("a probe's cure of an error is a fix unless the statement writes numbers and not its value", () => {
  /** A probe of each test's own (verdicts are kept per probe). */
  const probeOf = (): ObservedProbe => ({
    file: "exprcalc/evaluator.py",
    line: 126,
    step: 0,
    original: ["raised ExpressionError: unexpected '^' at position 6"],
    rewrites: new Map([
      ["if parser.peek() is None:", ["=> 8.0"]],
      ["return base ** self.unary()", ["=> 512.0"]],
      ["return Duration(hours=2)", ["=> Duration(hours=2)"]],
    ]),
  });
  const readWith = (numbers: string[]) => {
    const read = readView(listed);
    read.terms.values.clear();
    read.terms.numbers.splice(0, read.terms.numbers.length, ...numbers);
    return read;
  };

  it("where the statement writes 512: the cure that gives 512 is promising, the one that gives 8 is not", () => {
    const read = readWith(["2", "3", "512"]);
    const probe = probeOf();
    expect(promising(probeVerdict(read, probe, "return base ** self.unary()"))).toBe(true);
    expect(probeVerdict(read, probe, "if parser.peek() is None:")?.fixedError).toBe(false);
    expect(promising(probeVerdict(read, probe, "if parser.peek() is None:"))).toBe(false);
    expect(promising(probeVerdict(read, probe, "return Duration(hours=2)"))).toBe(true);
  });

  it("where the statement writes no number, every cure is promising", () => {
    const read = readWith([]);
    const probe = probeOf();
    expect(promising(probeVerdict(read, probe, "if parser.peek() is None:"))).toBe(true);
  });
});

describe("probing past its budget, and a trace that ran no repository line", () => {
  const line = (number: number): EditLine => ({ file: "pkg/core.py", line: number, text: "x", rewrites: [] });
  /** A context whose read probed `probed` lines, with `ranked` lines listed by a ranked trace. */
  const contextWith = (probed: number, ranked: number[]) => {
    const read = readView(listed);
    for (let index = 0; index < probed; index += 1)
      read.probes.set(`pkg/other.py:${index + 1}`, {
        file: "pkg/other.py",
        line: index + 1,
        step: 0,
        original: ["=> 1"],
        rewrites: new Map(),
      });
    for (const number of ranked) read.ranked.set(`pkg/core.py:${number}`, 1);
    return { read, editLines: () => [line(3), line(4)] } as unknown as ViewContext;
  };

  it("within the budget every unprobed shown line is a candidate; past it only the ranked ones", () => {
    expect(probeCandidates(contextWith(10, [])).map((entry) => entry.line)).toEqual([3, 4]);
    expect(probeCandidates(contextWith(grammarTuning.maxProbes, [])).map((entry) => entry.line)).toEqual([]);
    expect(probeCandidates(contextWith(grammarTuning.maxProbes, [4])).map((entry) => entry.line)).toEqual([
      4,
    ]);
  });

  it("a trace that executed no repository line leaves the files to be listed", () => {
    const noLines = withPrelude(traceStatementCommand(JSON.stringify(["no_such_name(1)"])));
    expect(readTraceOutput(noLines.output)?.lines).toEqual([]);
    expect(readTraceOutput(noLines.output)?.packages).toEqual(["exprcalc"]);
    expect(readView(noLines.view).files).toEqual([]);
    const traced = withPrelude(traceStatementCommand(calls));
    expect(readView(traced.view).files).toContain("exprcalc/__init__.py");
  });
});

describe("a probe's window fits the observation limit", () => {
  const lineWith = (number: number, rewrites: number): EditLine => ({
    file: "pkg/core.py",
    line: number,
    text: "    if value < low:",
    rewrites: Array.from({ length: rewrites }, (_, index) => ({
      text: `    if value < low + ${index}:`,
      kind: "off-by-one" as const,
    })),
  });

  it("takes the chosen line first, then its neighbours nearest first, while the output stays under the limit", () => {
    const few = [1, 2, 3, 4, 5].map((number) => lineWith(number, 3));
    expect(probeWindow(few, few[2] as EditLine, 2).map((entry) => entry.line)).toEqual([3, 2, 4, 1, 5]);
    const many = [1, 2, 3, 4, 5].map((number) => lineWith(number, 30));
    const window = probeWindow(many, many[2] as EditLine, 2);
    expect(window[0]?.line).toBe(3);
    expect(window.length).toBeLessThan(5);
    expect(window.map((entry) => entry.line)).toEqual([3, 2, 4].slice(0, window.length));
  });

  it("a line whose output alone passes the limit is probed alone", () => {
    const huge = [lineWith(1, 40), lineWith(2, 1)];
    expect(probeWindow(huge, huge[0] as EditLine, 6).map((entry) => entry.line)).toEqual([1]);
  });
});
