import { renderHarnessCall } from "@hs/harness";
import {
  decisionProbability,
  firstOptionsAfter,
  harnessCallCredit,
  rescueUpdate,
} from "@hs/learner-embedded";
import { createEmbeddedPolicy, type EmbeddedPolicy } from "@hs/policy-embedded";
import type { PolicyView, ToolCall, TrajectoryStep } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { v02View } from "./__fixtures__/views.js";
import { createDbBenchGrammar } from "./dbbench-grammar.js";
import { exploreSql } from "./sql-text.js";

const grammar = createDbBenchGrammar();
const operation = (sql: string) => `Action: Operation\n\`\`\`sql\n${sql}\n\`\`\``;
const sql = (id: string, query: string): ToolCall => ({ id, name: "execute_sql", arguments: { query } });

const question = "Who won the final played at Wembley Stadium in 1998?";
const table = "Cup Finals";
const headers = ["Year", "Venue", "Winner", "Score"];
const missedQuery =
  "SELECT `Winner` FROM `Cup Finals` WHERE `Venue` = 'Wembley Stadium' AND `Year` = '1998';";
const base = v02View(question, table, headers, [[operation(missedQuery), "[]"]]);
const distinctCall = sql("call-2.follow-up-0.0", "SELECT DISTINCT `Venue` FROM `Cup Finals` LIMIT 30;");
const venues = "[('Wembley',), ('Hampden Park',), ('Millennium Stadium',)]";
// what the DBBench library's empty-result follow-up appends to the empty reply
const followUpFeedback = `No rows matched: a value you filtered on may be written differently in the table. The harness listed the values of the columns you filtered on:\n\n${renderHarnessCall("execute_sql", distinctCall.arguments, venues)}`;
const sibling: PolicyView = {
  ...base,
  messages: [...base.messages.slice(0, -1), { role: "user", content: `[]\n\n${followUpFeedback}` }],
};

function step(index: number, view: PolicyView, extra: Partial<TrajectoryStep> = {}): TrajectoryStep {
  return {
    ...{ index, view, action: { content: "", logprob: null }, parsed: [], executed: [], feedback: "" },
    ...{ events: [], policyMs: 0, environmentMs: 0, ...extra },
  };
}

const rescued = {
  steps: [
    step(0, base, {
      harnessCalls: [{ call: distinctCall, result: { content: venues, isError: false, done: false } }],
      followUpFeedback,
    }),
    step(1, sibling),
  ],
};

/** One update on the rescued group (the sibling's next query +1, an answer -1), with or without the credit. */
async function updated(credit: boolean): Promise<{ before: EmbeddedPolicy; after: EmbeddedPolicy }> {
  const group = [
    { view: sibling, labels: firstOptionsAfter(grammar, sibling, ["kind:query"]), advantage: 1 },
    { view: sibling, labels: firstOptionsAfter(grammar, sibling, ["kind:answer"]), advantage: -1 },
  ];
  const creditedSteps = (policy: EmbeddedPolicy) => (credit ? harnessCallCredit(policy)(rescued) : []);
  return rescueUpdate(grammar, group, { usePrior: false, creditedSteps });
}

describe("harness-call credit on DBBench", () => {
  it("recovers a follow-up's distinct values, a preview and a check's read-back as explores", async () => {
    expect(grammar.decisionsFor?.(base, distinctCall)).toEqual(["kind:explore", "column:Venue"]);
    expect(
      grammar.decisionsFor?.(base, sql("c.follow-up-1.0", "SELECT * FROM `Cup Finals` LIMIT 3;")),
    ).toEqual(["kind:explore", "column:*"]);
    const update = "UPDATE `Cup Finals` SET `Score` = '2-1' WHERE `Venue` = 'Wembley Stadium';";
    const submitting = v02View("Set the score of the Wembley Stadium final to 2-1.", table, headers, [
      [operation(update), "[]"],
    ]);
    const readBack = sql(
      "c.check.0",
      "SELECT * FROM `Cup Finals` WHERE `Venue` = 'Wembley Stadium' LIMIT 10;",
    );
    expect(grammar.decisionsFor?.(submitting, readBack)).toEqual(["kind:explore", "change:last"]);
    const policy = await createEmbeddedPolicy({ grammar, seed: 3, usePrior: false });
    const credited = harnessCallCredit(policy)(rescued);
    expect(credited).toHaveLength(1);
    expect(credited[0]?.view).toEqual(base);
    expect(credited[0]?.action.content).toContain("SELECT DISTINCT `Venue` FROM `Cup Finals`");
  });

  it("credits a prelude's distinct values as the first view's explore, and raises it there", async () => {
    const first = v02View(question, table, headers, []);
    const preludeCalls = ["Year", "Venue"].map((column, index) => ({
      call: sql(`prelude.${index}`, `SELECT DISTINCT \`${column}\` FROM \`Cup Finals\` LIMIT 12;`),
      result: { content: "[('1998',)]", isError: false, done: false },
    }));
    const shown = preludeCalls.map(({ call, result }) =>
      renderHarnessCall("execute_sql", call.arguments, result.content),
    );
    const content = [
      "Before you start, the harness looked at the distinct values of each column:",
      ...shown,
    ].join("\n\n");
    const withPrelude: PolicyView = { ...first, messages: [...first.messages, { role: "user", content }] };
    const trajectory = { steps: [step(0, withPrelude)], preludeCalls };
    const policy = await createEmbeddedPolicy({ grammar, seed: 3, usePrior: false });
    const credited = harnessCallCredit(policy)(trajectory);
    expect(credited).toHaveLength(1);
    expect(credited[0]?.view).toEqual(first);
    expect(credited[0]?.action.content).toContain("SELECT DISTINCT `Year` FROM `Cup Finals`");
    const group = [
      { view: withPrelude, labels: firstOptionsAfter(grammar, withPrelude, ["kind:query"]), advantage: 1 },
      { view: withPrelude, labels: firstOptionsAfter(grammar, withPrelude, ["kind:answer"]), advantage: -1 },
    ];
    const explore = (policy: EmbeddedPolicy) =>
      decisionProbability(policy, grammar, first, [], "kind:explore");
    const creditOf = (credit: boolean) => (policy: EmbeddedPolicy) =>
      credit ? harnessCallCredit(policy)(trajectory) : [];
    const withCredit = await rescueUpdate(grammar, group, { usePrior: false, creditedSteps: creditOf(true) });
    const without = await rescueUpdate(grammar, group, { usePrior: false, creditedSteps: creditOf(false) });
    // measured: kind:explore 0.200 -> 0.280 with the credit, 0.273 without (the group alone moves it too)
    expect(explore(withCredit.after) / explore(without.after)).toBeGreaterThan(1.015);
  });

  it("credits the prelude's column whose value the policy then filtered on, not its first", async () => {
    const first = v02View(question, table, headers, []);
    const values = { Year: "[('1998',), ('1999',)]", Venue: "[('Wembley',), ('Hampden Park',)]" };
    const preludeCalls = Object.entries(values).map(([column, content], index) => ({
      call: sql(`prelude.${index}`, `SELECT DISTINCT \`${column}\` FROM \`Cup Finals\` LIMIT 12;`),
      result: { content, isError: false, done: false },
    }));
    const content = [
      "Before you start, the harness looked at the distinct values of each column:",
      ...preludeCalls.map(({ call, result }) =>
        renderHarnessCall("execute_sql", call.arguments, result.content),
      ),
    ].join("\n\n");
    const withPrelude: PolicyView = { ...first, messages: [...first.messages, { role: "user", content }] };
    const filtered = operation("SELECT `Winner` FROM `Cup Finals` WHERE `Venue` = 'Wembley';");
    const policy = await createEmbeddedPolicy({ grammar, seed: 3, usePrior: false });
    const credit = (action: string) =>
      harnessCallCredit(policy)({
        steps: [step(0, withPrelude, { action: { content: action, logprob: null } })],
        preludeCalls,
      }).map((credited) => credited.action.content);
    expect(credit(filtered)).toEqual([expect.stringContaining("SELECT DISTINCT `Venue` FROM `Cup Finals`")]);
    // nothing the prelude showed is quoted later: its first call, as before
    expect(credit(operation("SELECT `Winner` FROM `Cup Finals`;"))).toEqual([
      expect.stringContaining("SELECT DISTINCT `Year` FROM `Cup Finals`"),
    ]);
  });

  it("recovers nothing the grammar would not offer: a re-run SELECT, an unknown column, a repeat, no change", () => {
    expect(grammar.decisionsFor?.(base, sql("c.check.0", missedQuery))).toBeNull();
    expect(
      grammar.decisionsFor?.(base, sql("c.follow-up-0.0", "SELECT DISTINCT `Stadium` FROM `Cup Finals`;")),
    ).toBeNull();
    const previewed = v02View(question, table, headers, [
      [operation(exploreSql(table, "*")), "[('1998', 'Wembley', 'Arsenal', '2-0')]"],
    ]);
    const preview = sql("c.follow-up-1.0", "SELECT * FROM `Cup Finals` LIMIT 3;");
    expect(grammar.decisionsFor?.(previewed, preview)).toBeNull();
    const rows = sql("c.check.0", "SELECT * FROM `Cup Finals` WHERE `Venue` = 'Wembley' LIMIT 10;");
    expect(grammar.decisionsFor?.(base, rows)).toBeNull();
    expect(grammar.decisionsFor?.(base, { ...distinctCall, name: "submit" })).toBeNull();
  });

  it("with it, the rescue raises looking at the filtered column's values under the base harness", async () => {
    const [{ before: untrained, after: withCredit }, { after: withoutCredit }] = [
      await updated(true),
      await updated(false),
    ];
    const explore = (policy: EmbeddedPolicy) =>
      decisionProbability(policy, grammar, base, [], "kind:explore");
    const venue = (policy: EmbeddedPolicy) =>
      decisionProbability(policy, grammar, base, ["kind:explore"], "column:Venue");
    // measured: kind:explore 0.200 -> 0.258 with the credit, 0.231 without; the column 0.200 -> 0.230, 0.211
    expect(explore(withCredit) / explore(withoutCredit)).toBeGreaterThan(1.08);
    expect(venue(withCredit) / venue(withoutCredit)).toBeGreaterThan(1.06);
    expect(venue(withoutCredit) / venue(untrained)).toBeLessThan(1.07);
  });
});
