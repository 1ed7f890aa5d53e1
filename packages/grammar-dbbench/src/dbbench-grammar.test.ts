import type { ActionGrammarV1, GrammarStep, PolicyView } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { optionFeature } from "./__fixtures__/option-feature.js";
import { v02View } from "./__fixtures__/views.js";
import { createDbBenchGrammar } from "./dbbench-grammar.js";
import { featureNames } from "./features.js";
import { readView } from "./read-view.js";

const grammar = createDbBenchGrammar();
const headers = ["Result", "Opponent", "Method", "Event", "Notes"];
const question = "What are the Notes when the Method is decision?";

/** Follows a path of labels, checking each is offered, and returns the final step. */
function follow(target: ActionGrammarV1, view: PolicyView, labels: string[]): GrammarStep {
  for (let position = 0; position < labels.length; position++) {
    const step = target.next(view, labels.slice(0, position));
    if (step.done) throw new Error(`finished before ${labels[position]}`);
    const offered = step.decision.options.map((option) => option.label);
    expect(offered, `decision ${step.decision.name}`).toContain(labels[position]);
    for (const option of step.decision.options) expect(option.features.length).toBe(featureNames.length);
  }
  return target.next(view, labels);
}

describe("DBBench action grammar", () => {
  it("reads the table, headers and instruction from the v0.2 prompt", () => {
    const read = readView(v02View(question, "Jiu-Jitsu Championships Results", headers));
    expect(read.table).toBe("Jiu-Jitsu Championships Results");
    expect(read.headers).toEqual(headers);
    expect(read.instruction).toBe(question);
  });

  it("does not offer an explore whose reply is still in the view, nor explore once all are shown", () => {
    const operation = (sql: string) => `Action: Operation\n\`\`\`sql\n${sql}\n\`\`\``;
    const table = "Jiu-Jitsu Championships Results";
    const explores = ["*", ...headers].map((target) =>
      operation(
        target === "*"
          ? `SELECT * FROM \`${table}\` LIMIT 50;`
          : `SELECT DISTINCT \`${target}\` FROM \`${table}\` LIMIT 100;`,
      ),
    );
    const targets = (view: PolicyView) => {
      const step = grammar.next(view, ["kind:explore"]);
      return step.done ? [] : step.decision.options.map((option) => option.label);
    };
    const kinds = (view: PolicyView) => {
      const step = grammar.next(view, []);
      return step.done ? [] : step.decision.options.map((option) => option.label);
    };
    const fresh = v02View(question, table, headers);
    expect(targets(fresh)).toEqual(expect.arrayContaining(["column:*", "column:Method"]));
    const methodShown = v02View(question, table, headers, [[explores[3] ?? "", "[('decision',)]"]]);
    expect(targets(methodShown)).not.toContain("column:Method");
    expect(targets(methodShown)).toContain("column:*");
    expect(kinds(methodShown)).toContain("kind:explore");
    const allShown = v02View(
      question,
      table,
      headers,
      explores.map((reply) => [reply, "[('x',)]"] as [string, string]),
    );
    expect(kinds(allShown)).not.toContain("kind:explore");
    expect(kinds(allShown)).toContain("kind:query");
  });

  it("builds a query with a condition from a question span", () => {
    const view = v02View(question, "Jiu-Jitsu Championships Results", headers);
    const step = follow(grammar, view, [
      "kind:query",
      "column:Notes",
      "aggregate:none",
      "condition:add",
      "column:Method",
      "operator:=",
      "value:decision",
      "condition:stop",
      "order:none",
    ]);
    expect(step).toMatchObject({
      done: true,
      content:
        "Action: Operation\n```sql\nSELECT `Notes` FROM `Jiu-Jitsu Championships Results` WHERE `Method` = 'decision';\n```",
    });
  });

  it("offers cells of earlier results as values and answers from a chosen result", () => {
    const view = v02View(question, "Jiu-Jitsu Championships Results", headers, [
      [
        "Action: Operation\n```sql\nSELECT DISTINCT `Method` FROM `Jiu-Jitsu Championships Results`;\n```",
        "[('Decision',), ('Submission (armbar)',)]",
      ],
      [
        "Action: Operation\n```sql\nSELECT `Notes` FROM t WHERE `Method` = 'Decision';\n```",
        "[('Women +60kg Bronze',)]",
      ],
    ]);
    const read = readView(view);
    expect(read.cellsByColumn.get("Method")).toEqual(new Set(["Decision", "Submission (armbar)"]));
    follow(grammar, view, [
      "kind:query",
      "column:Notes",
      "aggregate:none",
      "condition:add",
      "column:Method",
      "operator:=",
      "value:Submission (armbar)",
    ]);
    const answer = follow(grammar, view, ["kind:answer", "result:1", "format:all"]);
    expect(answer).toMatchObject({
      done: true,
      content: 'Action: Answer\nFinal Answer: ["Women +60kg Bronze"]',
    });
  });

  it("reads a column holding the question's value as a filter, not as the answer", () => {
    const view = v02View(
      "What is the average total of player hale irwin, who had a t52 finish?",
      "Golf Champions",
      ["Player", "Total", "Finish"],
      [
        [
          "Action: Operation\n```sql\nSELECT DISTINCT `Player` FROM `Golf Champions` LIMIT 100;\n```",
          "[('Hale Irwin',), ('Tom Kite',)]",
        ],
      ],
    );
    const playerIn = (labels: string[]) =>
      optionFeature(follow(grammar, view, labels), "column:Player", "column-value-seen");
    expect(playerIn(["kind:query"])).toBe(-1);
    expect(playerIn(["kind:query", "column:Total", "aggregate:AVG", "condition:add"])).toBe(1);
    const values = follow(grammar, view, [
      "kind:query",
      "column:Total",
      "aggregate:AVG",
      "condition:add",
      "column:Player",
      "operator:=",
    ]);
    const requestWordsOf = (label: string) => optionFeature(values, label, "value-request-words");
    // `average` names what the query computes, not a player
    expect(requestWordsOf("value:average")).toBe(1);
    expect(requestWordsOf("value:Hale Irwin")).toBe(0);
  });

  it("lets a value the question ties to two columns be used twice, and no more", () => {
    const view = v02View(
      "The rugby team of Harvard was updated by setting 'Champion' to '1 ( 2020 )' and 'Semifinalist' to '1 ( 2020 )'.",
      "Rugby Teams",
      ["Team", "Champion", "Semifinalist", "Runner-up"],
    );
    const used = (labels: string[]) =>
      optionFeature(follow(grammar, view, labels), "value:1 ( 2020 )", "value-used");
    const first = ["kind:update", "column:Champion", "value:1 ( 2020 )"];
    expect(used([...first, "column:Semifinalist"])).toBe(0);
    expect(used([...first, "column:Semifinalist", "value:1 ( 2020 )", "column:Runner-up"])).toBe(1);
  });

  it("builds inserts column by column and updates with SET and WHERE", () => {
    const view = v02View(
      "Record the result: a win against Jo Smith by decision at Worlds 2012, notes 'Gold'.",
      "Results",
      headers,
    );
    const insert = follow(grammar, view, [
      "kind:insert",
      "value:win",
      "value:Jo Smith",
      "value:decision",
      "value:Worlds 2012",
      "value:Gold",
    ]);
    expect(insert).toMatchObject({
      done: true,
      content:
        "Action: Operation\n```sql\nINSERT INTO `Results` (`Result`, `Opponent`, `Method`, `Event`, `Notes`) VALUES ('win', 'Jo Smith', 'decision', 'Worlds 2012', 'Gold');\n```",
    });
    const update = follow(grammar, view, [
      "kind:update",
      "column:Notes",
      "value:Gold",
      "column:(where)",
      "column:Opponent",
      "value:Jo Smith",
    ]);
    expect(update).toMatchObject({
      content:
        "Action: Operation\n```sql\nUPDATE `Results` SET `Notes` = 'Gold' WHERE `Opponent` = 'Jo Smith';\n```",
    });
  });

  it("offers number forms, ordinals, case variants and lists", () => {
    const view = v02View(
      "What is the average gold of china, japan, and north korea with 12,000 fans in the 3rd round?",
      "Medals",
      ["Nation", "Gold", "Fans", "Round"],
    );
    const values = (
      follow(grammar, view, [
        "kind:query",
        "column:Gold",
        "aggregate:AVG",
        "condition:add",
        "column:Fans",
        "operator:=",
      ]) as unknown as {
        decision: { options: { label: string }[] };
      }
    ).decision.options.map((option) => option.label);
    for (const expected of [
      "value:12,000",
      "value:12000",
      "value:3",
      "value:China",
      "value:north korea",
      "value:North Korea",
    ]) {
      expect(values).toContain(expected);
    }
    const lists = follow(grammar, view, [
      "kind:query",
      "column:Gold",
      "aggregate:AVG",
      "condition:add",
      "column:Nation",
      "operator:IN",
    ]);
    expect(lists.done).toBe(false);
    const listLabels = lists.done ? [] : lists.decision.options.map((option) => option.label);
    expect(listLabels).toContain("value:china | japan | north korea");
    const step = follow(grammar, view, [
      "kind:query",
      "column:Gold",
      "aggregate:AVG",
      "condition:add",
      "column:Nation",
      "operator:IN",
      "value:china | japan | north korea",
      "condition:stop",
      "order:none",
    ]);
    expect(step).toMatchObject({
      content:
        "Action: Operation\n```sql\nSELECT AVG(`Gold`) FROM `Medals` WHERE `Nation` IN ('china', 'japan', 'north korea');\n```",
    });
  });

  it("uses the native tools when the view offers them", () => {
    const view: PolicyView = {
      ...v02View(question, "T", headers),
      actionFormat: "tool-calls",
      tools: [
        {
          name: "execute_sql",
          description: "",
          parameters: { type: "object", properties: { sql: { type: "string" } } },
        },
        {
          name: "commit_final_answer",
          description: "",
          parameters: { type: "object", properties: { answers: { type: "array" } } },
          terminal: true,
        },
      ],
    };
    const step = follow(grammar, view, ["kind:explore", "column:Method"]);
    expect(step).toMatchObject({
      toolCalls: [
        { name: "execute_sql", arguments: { sql: "SELECT DISTINCT `Method` FROM `T` LIMIT 100;" } },
      ],
    });
    expect(follow(grammar, view, ["kind:answer", "result:none"])).toMatchObject({
      toolCalls: [{ name: "commit_final_answer", arguments: { answers: [] } }],
    });
  });
});
