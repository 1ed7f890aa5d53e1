import {
  harnessTestCommand,
  rankedTraceCommand,
  traceBeforeAfterCommand,
  traceStatementCommand,
} from "@hs/benchmarks-swegym";
import { harnessCallCredit } from "@hs/learner-embedded";
import { createEmbeddedPolicy } from "@hs/policy-embedded";
import type { PolicyView, ToolCall, TrajectoryStep } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { fixtureView, viewAfter } from "./__fixtures__/views.js";
import { readView } from "./read-view.js";
import { createSweGymGrammar } from "./swegym-grammar.js";

const grammar = createSweGymGrammar();
const full = fixtureView("exprcalc-8-text");
const bash = (command: string): ToolCall => ({
  id: "call-1.follow-up-0.0",
  name: "bash",
  arguments: { command },
});

/** The option labels of the decision after `chosen` under `view`. */
function options(view: PolicyView, chosen: readonly string[]): string[] {
  const step = grammar.next(view, chosen);
  return step.done ? [] : step.decision.options.map((option) => option.label);
}

describe("SWE-Gym harness calls as the policy's decisions", () => {
  it("reads the harness's test run, its traces and a frame's lines as test, trace and show", () => {
    const listed = viewAfter(full, 1);
    const calls = JSON.stringify(readView(listed).terms.expressions);
    expect(grammar.decisionsFor?.(listed, bash(harnessTestCommand))).toEqual(["kind:test", "tests:all"]);
    expect(grammar.decisionsFor?.(listed, bash(traceStatementCommand(calls)))).toEqual([
      "kind:trace",
      "trace:plain",
    ]);
    expect(grammar.decisionsFor?.(listed, bash(traceBeforeAfterCommand(calls)))).toEqual([
      "kind:trace",
      "trace:plain",
    ]);
    expect(grammar.decisionsFor?.(listed, bash(rankedTraceCommand(calls)))).toEqual([
      "kind:trace",
      "trace:ranked",
    ]);
    const reproduced = viewAfter(full, 2);
    const frame = options(reproduced, ["kind:show"]).find((label) => label.startsWith("at:")) ?? "";
    expect(frame).toMatch(/^at:.+\.py:\d+$/);
    const [, file, line] = frame.split(":");
    const around = `nl -ba '${file}' | sed -n "$(( ${line} > 8 ? ${line} - 8 : 1 )),$(( ${line} + 8 ))p"`;
    expect(grammar.decisionsFor?.(reproduced, bash(around))).toEqual(["kind:show", frame]);
  });

  it("reads nothing the view does not offer: an unnamed line, one test file, a grep, another tool", () => {
    const reproduced = viewAfter(full, 2);
    const unnamed = `nl -ba 'exprcalc/nowhere.py' | sed -n "$(( 40 > 8 ? 40 - 8 : 1 )),$(( 40 + 8 ))p"`;
    expect(grammar.decisionsFor?.(reproduced, bash(unnamed))).toBeNull();
    expect(grammar.decisionsFor?.(reproduced, bash("python3 -m pytest -q tests/test_parser.py"))).toBeNull();
    expect(
      grammar.decisionsFor?.(reproduced, bash("grep -rn --include=*.py -e 'parse' . | head -n 50")),
    ).toBeNull();
    expect(grammar.decisionsFor?.(reproduced, { ...bash(harnessTestCommand), name: "submit" })).toBeNull();
  });

  it("credits a test-run check as running the suite instead of submitting, under the submitting view", async () => {
    const submitting = viewAfter(full, 4);
    const check = { ...bash(harnessTestCommand), id: "call-5.check.0" };
    const step = {
      ...{ index: 4, view: submitting, action: { content: "", logprob: null }, parsed: [], executed: [] },
      ...{ feedback: "", events: [], policyMs: 0, environmentMs: 0 },
      harnessCalls: [{ call: check, result: { content: "1 failed", isError: false, done: false } }],
    } satisfies TrajectoryStep;
    const policy = await createEmbeddedPolicy({ grammar, seed: 0, usePrior: false });
    const [credited] = harnessCallCredit(policy)({ steps: [step] });
    expect(credited?.view).toBe(submitting);
    expect(credited?.action.trace).toEqual({
      kind: "embedded-decisions",
      labels: ["kind:test", "tests:all"],
    });
    expect(credited?.action.content).toContain("python3 -m pytest");
  });
});
