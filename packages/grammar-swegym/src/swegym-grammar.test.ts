import { exactlyOneBashBlockPattern } from "@hs/benchmarks-swegym";
import type { GrammarStep, PolicyView } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { fixtureView, prefixes, viewAfter } from "./__fixtures__/views.js";
import { featureNames, priorVector } from "./features.js";
import grammarPlugin, { createSweGymGrammar } from "./index.js";

const grammar = createSweGymGrammar();
const prior = priorVector();
const fixtureNames = ["exprcalc-8-text", "exprcalc-8-tools", "durations-4-text"] as const;

function score(features: readonly number[]): number {
  return features.reduce((total, value, index) => total + value * (prior[index] ?? 0), 0);
}

/** The labels the untrained policy's prior ranks first, decision by decision, and the finished action. */
function priorWalk(view: PolicyView): { labels: string[]; step: GrammarStep & { done: true } } {
  const labels: string[] = [];
  let step = grammar.next(view, labels);
  while (!step.done) {
    const best = step.decision.options.reduce((top, entry) =>
      score(entry.features) > score(top.features) ? entry : top,
    );
    labels.push(best.label);
    step = grammar.next(view, labels);
  }
  return { labels, step };
}

/** Every finished action reachable from a view, taking each option of each decision (bounded). */
function allActions(
  view: PolicyView,
  limit = 400,
): { labels: string[]; step: GrammarStep & { done: true } }[] {
  const found: { labels: string[]; step: GrammarStep & { done: true } }[] = [];
  const stack: string[][] = [[]];
  while (stack.length > 0 && found.length < limit) {
    const labels = stack.pop() as string[];
    const step = grammar.next(view, labels);
    if (step.done) {
      found.push({ labels, step });
      continue;
    }
    expect(step.decision.options.length).toBeGreaterThan(0);
    for (const entry of step.decision.options) {
      expect(entry.features).toHaveLength(featureNames.length);
      stack.push([...labels, entry.label]);
    }
  }
  return found;
}

describe("grammarPlugin", () => {
  it("names the swegym benchmark and creates a grammar whose prior fits its features", () => {
    expect(grammarPlugin.benchmark).toBe("swegym");
    const created = grammarPlugin.createGrammar();
    expect(created.featureCount).toBe(featureNames.length);
    expect(created.prior).toHaveLength(featureNames.length);
    expect(created.featureNames).toEqual(featureNames);
  });
});

describe("decisions from captured views", () => {
  it("starts by listing the files, then searches the issue's names, then looks at the definition, then probes it", () => {
    const view = fixtureView("durations-4-text");
    expect(priorWalk(viewAfter(view, 0)).labels).toEqual(["kind:explore"]);
    expect(priorWalk(viewAfter(view, 1)).labels).toEqual(["kind:search", "term:parse"]);
    expect(priorWalk(viewAfter(view, 2)).labels).toEqual(["kind:show", "at:durations/parse.py:16"]);
    // the statement writes a call (`parse("2H")`): the shown lines are probed against it before any edit
    expect(priorWalk(viewAfter(view, 3)).labels[0]).toBe("kind:probe");
  });

  it("runs the tests after an edit and submits once they pass", () => {
    const view = fixtureView("durations-4-text");
    expect(priorWalk(viewAfter(view, 4)).labels).toEqual(["kind:test", "tests:all"]);
    expect(priorWalk(view).labels).toEqual(["kind:submit"]);
  });

  it("after a traceback shows the innermost source frame, and reverts an edit the tests reject", () => {
    const view = fixtureView("exprcalc-8-text");
    expect(priorWalk(viewAfter(view, 2)).labels).toEqual(["kind:show", "at:exprcalc/evaluator.py:96"]);
    expect(priorWalk(view).labels).toEqual(["kind:revert", "revert:exprcalc/evaluator.py"]);
  });

  it("offers the failing test id the last run reported", () => {
    const step = grammar.next(fixtureView("exprcalc-8-text"), ["kind:test"]);
    expect(step.done).toBe(false);
    if (!step.done)
      expect(step.decision.options.map((entry) => entry.label)).toContain(
        "tests:tests/test_evaluate.py::test_functions",
      );
  });
});

describe("every view yields options and submit is always reachable", () => {
  for (const name of fixtureNames) {
    it(`on every prefix of ${name}`, () => {
      for (const view of prefixes(fixtureView(name))) {
        const first = grammar.next(view, []);
        expect(first.done).toBe(false);
        if (first.done) continue;
        expect(first.decision.options.map((entry) => entry.label)).toContain("kind:submit");
        expect(allActions(view).length).toBeGreaterThan(1);
      }
    });
  }
});

describe("action formats", () => {
  it("text actions hold a THOUGHT and exactly one bash block (mini-swe-agent's rule)", () => {
    const rule = new RegExp(exactlyOneBashBlockPattern);
    for (const view of prefixes(fixtureView("exprcalc-8-text"))) {
      for (const { step } of allActions(view)) {
        expect(step.content.startsWith("THOUGHT: ")).toBe(true);
        const match = rule.exec(step.content);
        expect(match).not.toBeNull();
        expect(match?.[1]).toBe(step.toolCalls[0]?.arguments.command);
      }
    }
  });

  it("native actions are a bash or submit tool call the view offers", () => {
    const view = fixtureView("exprcalc-8-tools");
    const offered = new Set(view.tools.map((tool) => tool.name));
    for (const { labels, step } of allActions(view)) {
      expect(step.toolCalls).toHaveLength(1);
      const call = step.toolCalls[0];
      expect(offered.has(call?.name ?? "")).toBe(true);
      if (labels[0] === "kind:submit") expect(call).toMatchObject({ name: "submit", arguments: {} });
      else expect(typeof call?.arguments.command).toBe("string");
      expect(step.content).not.toContain("```");
    }
  });
});

describe("the grammar reads nothing but the view", () => {
  it("proposes only paths, lines and line texts the view shows", () => {
    for (const name of fixtureNames) {
      const view = fixtureView(name);
      const text = view.messages.map((message) => message.content).join("\n");
      for (const { labels } of allActions(view, 2000)) {
        const place = /^(?:at|line):(.+):(\d+)$/.exec(labels[1] ?? "");
        if (place !== null) {
          expect(text).toContain(place[1]);
          expect(text).toMatch(new RegExp(`\\b${place[2]}\\b`));
        }
        const file = /^(?:top|next|revert|tests):(.+?)(?::\d+)?$/.exec(labels[1] ?? "");
        if (file !== null && file[1] !== "all") expect(text).toContain(file[1]?.split("::")[0]);
        if (labels[0] === "kind:search") expect(text).toContain(labels[1]?.slice("term:".length));
      }
      const edit = grammar.next(view, ["kind:edit"]);
      if (edit.done) continue;
      for (const entry of edit.decision.options) {
        const [, file, line] = /^line:(.+):(\d+)$/.exec(entry.label) ?? [];
        const done = grammar.next(view, ["kind:edit", entry.label, "rewrite:0:x"]);
        expect(done.done).toBe(true);
        if (!done.done || file === undefined) continue;
        const original = /number, old, new = \d+, ("(?:\\.|[^"\\])*")/.exec(
          String(done.toolCalls[0]?.arguments.command),
        );
        const shownText = JSON.parse(original?.[1] ?? '""') as string;
        expect(text.includes(`${line}\t${shownText}`) || text.includes(`${file}:${line}:${shownText}`)).toBe(
          true,
        );
      }
    }
  });

  it("gives identical decisions for identical views, whatever else differs", () => {
    const view = fixtureView("exprcalc-8-text");
    const copy = JSON.parse(JSON.stringify(view)) as PolicyView;
    expect(allActions(copy)).toEqual(allActions(view));
  });
});
