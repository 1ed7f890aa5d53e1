import { describe, expect, it } from "vitest";
import { greedyAction } from "./__fixtures__/guidance-scenarios.js";
import { v02View } from "./__fixtures__/views.js";
import { changeCheckSql, changeChecks } from "./change-check.js";
import { createDbBenchGrammar } from "./dbbench-grammar.js";
import { alignmentWeights, priorVector, priorWeights } from "./features.js";
import { readView } from "./read-view.js";

const grammar = createDbBenchGrammar();
// a reader that ties the question's values to their columns, the rule training learns
const prior = priorVector({ ...priorWeights, ...alignmentWeights });
const operation = (sql: string) => `Action: Operation\n\`\`\`sql\n${sql}\n\`\`\``;
const committed = "Action: Answer\nFinal Answer: []";
const check =
  "Before committing []: if you changed the table, select the rows your change should have reached; if none come back, your WHERE missed them. Submit again to confirm.";
const headers = ["Name", "Location", "Historic England Description", "Year Listed"];
const question = "Set the 'Year Listed' of 'Windsor Castle' in the 'Listed Buildings' to 1992.";
const missedUpdate =
  "UPDATE `Listed Buildings` SET `Year Listed` = '1992' WHERE `Historic England Description` = 'Windsor Castle';";
const readBack = "SELECT * FROM `Listed Buildings` WHERE `Historic England Description` = 'Windsor Castle';";

describe("change check", () => {
  it("reads back the rows an UPDATE's WHERE names, or its new values when it sets the tested column", () => {
    expect(changeCheckSql(missedUpdate)).toBe(readBack);
    expect(changeCheckSql("UPDATE `t` SET `a` = 'x, y', `b` = '2' WHERE `a` = 'old';")).toBe(
      "SELECT * FROM `t` WHERE `a` = 'x, y' AND `b` = '2';",
    );
    expect(changeCheckSql("SELECT * FROM `t`;")).toBeNull();
    expect(changeCheckSql("INSERT INTO `t` (`a`) VALUES ('1');")).toBeNull();
  });

  it("tells an unchecked UPDATE from one whose read-back returned no rows", () => {
    const unchecked = readView(
      v02View(question, "Listed Buildings", headers, [[operation(missedUpdate), "[]"]]),
    );
    expect(changeChecks(unchecked.actions).unchecked?.sql).toBe(missedUpdate);
    const missed = readView(
      v02View(question, "Listed Buildings", headers, [
        [operation(missedUpdate), "[]"],
        [committed, check],
        [operation(readBack), "[]"],
      ]),
    );
    const checks = changeChecks(missed.actions);
    expect(checks.unchecked).toBeNull();
    expect([...checks.missed].map((action) => action.sql)).toEqual([missedUpdate]);
    expect(checks.missedReads).toEqual([readBack.toLowerCase()]);
  });

  it("after a held commit reads the change back; after an empty read-back updates again on another column", () => {
    const held = v02View(question, "Listed Buildings", headers, [
      [operation(missedUpdate), "[]"],
      [committed, check],
    ]);
    expect(greedyAction(grammar, held, prior)).toContain(readBack);
    // without the check the policy commits
    const base = v02View(question, "Listed Buildings", headers, [[operation(missedUpdate), "[]"]]);
    expect(greedyAction(grammar, base, prior)).toContain("Final Answer");
    const missed = v02View(question, "Listed Buildings", headers, [
      [operation(missedUpdate), "[]"],
      [committed, check],
      [operation(readBack), "[]"],
    ]);
    const retry = greedyAction(grammar, missed, prior);
    expect(retry).toMatch(
      /^Action: Operation\n```sql\nUPDATE `Listed Buildings` SET `Year Listed` = '1992' WHERE/,
    );
    expect(retry).not.toContain("WHERE `Historic England Description` = 'Windsor Castle'");
    // a read-back that found the row lets the commit through
    const found = v02View(question, "Listed Buildings", headers, [
      [operation(missedUpdate), "[]"],
      [committed, check],
      [operation(readBack), "[('Windsor Castle', 'Windsor', 'WINDSOR CASTLE', '1992')]"],
    ]);
    expect(greedyAction(grammar, found, prior)).toContain("Final Answer");
  });
});
