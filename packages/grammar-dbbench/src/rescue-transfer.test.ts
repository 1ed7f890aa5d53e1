import { dbbenchCheckPrompts, dbbenchEmptyResultNotes, dbbenchHintPhrases } from "@hs/benchmarks-dbbench";
import { harnessCallMarker } from "@hs/harness";
import { decisionProbability, rescueUpdate } from "@hs/learner-embedded";
import type { ActionGrammarV1, ChatMessage, PolicyView } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { v02View } from "./__fixtures__/views.js";
import { createDbBenchGrammar } from "./dbbench-grammar.js";
import { type FeatureName, featureIndex, priorVector } from "./features.js";

const grammar = createDbBenchGrammar();
const prior = priorVector();
const table = "US Ambassadors";
const headers = ["Representative", "Title", "Presentation of Credentials", "Termination of Mission"];
const query = (sql: string) => `Action: Operation\n\`\`\`sql\n${sql}\n\`\`\``;
const failedQuery = query(
  "SELECT `Presentation of Credentials` FROM `US Ambassadors` WHERE `Termination of Mission` = 'August 15';",
);
const distinctSql = "SELECT DISTINCT `Termination of Mission` FROM `US Ambassadors` LIMIT 30;";
const cells = "[('August 15, 2000',), ('March 3, 1999',), ('May 1, 2001',)]";

/** The grammar with some features always 0 (an ablation: the decision without its shared features). */
function without(names: readonly FeatureName[]): ActionGrammarV1 {
  const zeroed = names.map((name) => featureIndex.get(name) ?? -1);
  return {
    ...grammar,
    next(view, chosen) {
      const step = grammar.next(view, chosen);
      if (step.done) return step;
      const options = step.decision.options.map((option) => ({
        label: option.label,
        features: option.features.map((value, index) => (zeroed.includes(index) ? 0 : value)),
      }));
      return { done: false, decision: { name: step.decision.name, options } };
    },
  };
}

/** The prior's greedy decisions from `prefix` to the end of the action. */
function greedyFrom(view: PolicyView, prefix: readonly string[]): string[] {
  const chosen = [...prefix];
  for (let step = grammar.next(view, chosen); !step.done; step = grammar.next(view, chosen)) {
    const scored = step.decision.options.map((option) => ({
      label: option.label,
      score: option.features.reduce((sum, value, index) => sum + value * (prior[index] ?? 0), 0),
    }));
    scored.sort((a, b) => b.score - a.score);
    chosen.push(scored[0]?.label ?? "");
  }
  return chosen;
}

/** The view with a hint appended to the task message, as the guidance direction renders it. */
function withHint(view: PolicyView, hint: string): PolicyView {
  const messages = view.messages.map(
    (message, index): ChatMessage =>
      index === 2 ? { ...message, content: `${message.content}\n\nHints:\n- ${hint}` } : message,
  );
  return { ...view, messages };
}

/** How much one update on `group` multiplies the base-harness probability of each `[prefix, label]`. */
async function rises(
  scoring: ActionGrammarV1,
  group: readonly { view: PolicyView; labels: readonly string[]; advantage: number }[],
  base: PolicyView,
  decisions: readonly [readonly string[], string][],
): Promise<number[]> {
  const { before, after } = await rescueUpdate(scoring, group);
  return decisions.map(
    ([prefix, label]) =>
      decisionProbability(after, scoring, base, prefix, label) /
      decisionProbability(before, scoring, base, prefix, label),
  );
}

function feature(view: PolicyView, chosen: readonly string[], label: string, name: FeatureName): number {
  const step = grammar.next(view, chosen);
  if (step.done) throw new Error("no decision");
  return (
    step.decision.options.find((option) => option.label === label)?.features[featureIndex.get(name) ?? -1] ??
    NaN
  );
}

describe("a rescued decision transfers to the base harness (one GRPO update)", () => {
  it("looking at the distinct values of the column an empty query filtered on", async () => {
    const question =
      "What is the Presentation of Credentials has a Termination of Mission listed as August 15?";
    const base = v02View(question, table, headers, [[failedQuery, "[]"]]);
    // the sibling's note after [] (error-recovery direction); the rescued rollout looked at the values
    const sibling = v02View(question, table, headers, [
      [failedQuery, `[]\n${dbbenchEmptyResultNotes.lookAtValues}`],
    ]);
    const looked = greedyFrom(sibling, []);
    expect(looked.slice(0, 2)).toEqual(["kind:explore", "column:Termination of Mission"]);
    expect(greedyFrom(base, [])[0]).not.toBe("kind:explore");
    // the same feature, with the same value, under both harnesses
    for (const view of [base, sibling]) {
      expect(feature(view, [], "kind:explore", "explore-after-empty")).toBe(1);
      expect(feature(view, ["kind:explore"], "column:Termination of Mission", "explore-failed-column")).toBe(
        1,
      );
    }
    const group = [
      { view: sibling, labels: looked, advantage: 1 },
      { view: sibling, labels: greedyFrom(sibling, ["kind:answer"]), advantage: -1 },
    ];
    const rise = async (scoring: ActionGrammarV1) => {
      const { before, after } = await rescueUpdate(scoring, group);
      const explore = (policy: typeof before) =>
        decisionProbability(policy, scoring, base, [], "kind:explore");
      const column = (policy: typeof before) =>
        decisionProbability(policy, scoring, base, ["kind:explore"], "column:Termination of Mission");
      return { explore: explore(after) / explore(before), column: column(after) / column(before) };
    };
    const shared = await rise(grammar);
    expect(shared.explore).toBeGreaterThan(1.2);
    expect(shared.column).toBeGreaterThan(1.05);
    // without the shared features the same update moves the base decision less
    const ablated = await rise(without(["explore-after-empty", "explore-failed-column"]));
    expect(shared.explore).toBeGreaterThan(ablated.explore);
    expect(shared.column).toBeGreaterThan(ablated.column);
  });

  it("filtering on a value the harness listed, after the policy lists it itself", async () => {
    const question =
      "What is the Presentation of Credentials has a Termination of Mission listed as August 15?";
    const note = `No rows matched: the value you filtered \`Termination of Mission\` on may be written differently there. The harness listed the values of \`Termination of Mission\`:`;
    // the follow-up sibling listed the values itself (a harness call, not a policy decision)
    const sibling = v02View(question, table, headers, [
      [failedQuery, `[]\n\n${note}\n\n${harnessCallMarker}execute_sql: ${distinctSql}]\n${cells}`],
    ]);
    // under the base harness the policy listed them with its own explore
    const base = v02View(question, table, headers, [
      [failedQuery, "[]"],
      [query(distinctSql), cells],
    ]);
    const prefix = greedyFrom(sibling, []).slice(0, 6);
    expect(prefix).toEqual(greedyFrom(base, []).slice(0, 6));
    expect(feature(sibling, prefix, "value:August 15, 2000", "value-in-column-cells")).toBe(1);
    expect(feature(base, prefix, "value:August 15, 2000", "value-in-column-cells")).toBe(1);
    const rescued = [
      ...prefix,
      "value:August 15, 2000",
      ...greedyFrom(sibling, [...prefix, "value:August 15, 2000"]).slice(7),
    ];
    const failed = [
      ...prefix,
      "value:August 15",
      ...greedyFrom(sibling, [...prefix, "value:August 15"]).slice(7),
    ];
    const { before, after } = await rescueUpdate(grammar, [
      { view: sibling, labels: rescued, advantage: 1 },
      { view: sibling, labels: failed, advantage: -1 },
    ]);
    const value = (policy: typeof before) =>
      decisionProbability(policy, grammar, base, prefix, "value:August 15, 2000");
    expect(value(after)).toBeGreaterThan(value(before));
  });

  it("reading back the rows an UPDATE should have reached (the verification direction's check)", async () => {
    const buildings = ["Name", "Location", "Historic England Description", "Year Listed"];
    const change = "Set the 'Year Listed' of 'Windsor Castle' in the 'Listed Buildings' to 1992.";
    const update = query(
      "UPDATE `Listed Buildings` SET `Year Listed` = '1992' WHERE `Historic England Description` = 'Windsor Castle';",
    );
    const readBack =
      "SELECT * FROM `Listed Buildings` WHERE `Historic England Description` = 'Windsor Castle';";
    const base = v02View(change, "Listed Buildings", buildings, [[update, "[]"]]);
    // the sibling held the commit with its check; the rescued rollout read the change back
    const sibling = v02View(change, "Listed Buildings", buildings, [
      [update, "[]"],
      ["Action: Answer\nFinal Answer: []", dbbenchCheckPrompts.readBackChange.replace("{answer}", "[]")],
    ]);
    const readingBack = greedyFrom(sibling, []);
    expect(readingBack).toEqual(["kind:explore", "change:last"]);
    // the base harness offers the same read-back, and the untrained policy does not take it
    expect(greedyFrom(base, [])[0]).toBe("kind:answer");
    const baseStep = grammar.next(base, ["kind:explore", "change:last"]);
    expect(baseStep.done && baseStep.content).toContain(readBack);
    for (const view of [base, sibling])
      expect(feature(view, [], "kind:explore", "read-back-unchecked")).toBe(1);
    const group = [
      { view: sibling, labels: readingBack, advantage: 1 },
      { view: sibling, labels: greedyFrom(sibling, ["kind:answer"]), advantage: -1 },
    ];
    const decisions: [string[], string][] = [[[], "kind:explore"]];
    const [shared = 0] = await rises(grammar, group, base, decisions);
    expect(shared).toBeGreaterThan(1.2);
    const [ablated = 0] = await rises(without(["read-back-unchecked"]), group, base, decisions);
    expect(shared).toBeGreaterThan(ablated);
  });

  it("looking at a column's distinct values before the first filter (the guidance direction's hint)", async () => {
    const question =
      "What is the Presentation of Credentials has a Termination of Mission listed as August 15, 2000?";
    const base = v02View(question, table, headers);
    const sibling = withHint(base, dbbenchHintPhrases.previewBeforeFilter);
    const looked = greedyFrom(sibling, []);
    expect(looked).toEqual(["kind:explore", "column:Termination of Mission"]);
    // a real choice under the base harness: looking and querying straight away are both offered
    const kinds = grammar.next(base, []);
    const offered = kinds.done ? [] : kinds.decision.options.map((option) => option.label);
    expect(offered).toEqual(expect.arrayContaining(["kind:explore", "kind:query"]));
    for (const view of [base, sibling])
      expect(feature(view, [], "kind:explore", "explore-before-filter")).toBe(1);
    // once a harness listed the column's values there is nothing to look at before filtering
    const listed = v02View(question, table, headers, [[query(distinctSql), cells]]);
    expect(feature(listed, [], "kind:explore", "explore-before-filter")).toBe(0);
    const group = [
      { view: sibling, labels: looked, advantage: 1 },
      { view: sibling, labels: greedyFrom(sibling, ["kind:query"]), advantage: -1 },
    ];
    const decisions: [string[], string][] = [[[], "kind:explore"]];
    const [shared = 0] = await rises(grammar, group, base, decisions);
    expect(shared).toBeGreaterThan(1);
    const [ablated = 0] = await rises(without(["explore-before-filter"]), group, base, decisions);
    expect(shared).toBeGreaterThan(ablated);
  });
});
