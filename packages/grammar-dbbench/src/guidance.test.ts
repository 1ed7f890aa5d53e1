import type { ChatMessage, PolicyView } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { baseScenarios, greedyAction } from "./__fixtures__/guidance-scenarios.js";
import { optionFeature } from "./__fixtures__/option-feature.js";
import { v02View } from "./__fixtures__/views.js";
import { createDbBenchGrammar } from "./dbbench-grammar.js";
import { featureIndex, featureNames, priorVector } from "./features.js";

const grammar = createDbBenchGrammar();
const prior = priorVector();
const guideFeatures = featureNames.filter((name) => name.startsWith("guide-"));
const headers = ["Representative", "Title", "Presentation of Credentials", "Termination of Mission"];
const question =
  "What is the Presentation of Credentials has a Termination of Mission listed as August 15, 2000?";
const query = (sql: string) => `Action: Operation\n\`\`\`sql\n${sql}\n\`\`\``;
const failedQuery = query(
  "SELECT `Presentation of Credentials` FROM `US Ambassadors` WHERE `Termination of Mission` = 'August 15';",
);

/** The view with hints appended to the task message (the v0.2 hint placement "task"). */
function withHints(view: PolicyView, hints: string[]): PolicyView {
  const messages = view.messages.map(
    (message, index): ChatMessage =>
      index === 2
        ? {
            ...message,
            content: `${message.content}\n\nHints:\n${hints.map((hint) => `- ${hint}`).join("\n")}`,
          }
        : message,
  );
  return { ...view, messages };
}

/** Prior probability of `label` at the decision reached after `chosen`. */
function probability(view: PolicyView, chosen: string[], label: string): number {
  const step = grammar.next(view, chosen);
  if (step.done) throw new Error("no decision");
  const scores = step.decision.options.map((option) =>
    option.features.reduce((sum, value, index) => sum + value * (prior[index] ?? 0), 0),
  );
  const top = Math.max(...scores);
  const total = scores.reduce((sum, score) => sum + Math.exp(score - top), 0);
  const index = step.decision.options.findIndex((option) => option.label === label);
  expect(index, `${label} offered`).toBeGreaterThanOrEqual(0);
  return Math.exp((scores[index] ?? 0) - top) / total;
}

describe("guidance features", () => {
  it("are 0 on every option of base-harness views, so their weights do not change base actions", () => {
    const withoutGuidance = prior.map((weight, index) =>
      guideFeatures.includes(featureNames[index] as (typeof guideFeatures)[number]) ? 0 : weight,
    );
    for (const { name, view } of baseScenarios()) {
      expect(greedyAction(grammar, view, prior), name).toBe(greedyAction(grammar, view, withoutGuidance));
      const chosen: string[] = [];
      for (let step = grammar.next(view, chosen); !step.done; step = grammar.next(view, chosen)) {
        for (const option of step.decision.options)
          for (const feature of guideFeatures)
            expect(option.features[featureIndex.get(feature) ?? -1]).toBe(0);
        chosen.push(step.decision.options[0]?.label ?? "");
      }
    }
  });

  it("previewing distinct values before filtering raises explore and the condition column", () => {
    const base = v02View(question, "US Ambassadors", headers);
    const hinted = withHints(base, [
      "Preview the distinct values of a condition column before filtering on it.",
    ]);
    expect(probability(hinted, [], "kind:explore")).toBeGreaterThan(
      probability(base, [], "kind:explore") + 0.1,
    );
    expect(greedyAction(grammar, hinted, prior)).toContain("SELECT DISTINCT `Termination of Mission`");
  });

  it("after [] with the empty-result hint, explores the failed condition column", () => {
    const base = v02View(question, "US Ambassadors", headers, [[failedQuery, "[]"]]);
    const hinted = withHints(base, [
      "If a query returns [], the condition value may be written differently in the table; look at the rows before answering.",
    ]);
    expect(probability(hinted, [], "kind:explore")).toBeGreaterThan(
      probability(base, [], "kind:explore") + 0.3,
    );
    expect(greedyAction(grammar, hinted, prior)).toContain("SELECT DISTINCT `Termination of Mission`");
  });

  it("reads the harness's note after an empty result: explores the failed column, then does not repeat the failed condition", () => {
    const base = v02View(question, "US Ambassadors", headers, [[failedQuery, "[]"]]);
    const noted = v02View(question, "US Ambassadors", headers, [
      [
        failedQuery,
        "[]\nNo rows matched. The value may be written differently in the table: look at the distinct values of the column you filtered on before you answer.",
      ],
    ]);
    expect(probability(noted, [], "kind:explore")).toBeGreaterThan(
      probability(base, [], "kind:explore") + 0.3,
    );
    expect(greedyAction(grammar, noted, prior)).toContain("SELECT DISTINCT `Termination of Mission`");
    const condition = ["kind:query", "column:Presentation of Credentials", "aggregate:none", "condition:add"];
    const value = [...condition, "column:Termination of Mission", "operator:="];
    expect(probability(noted, value, "value:August 15")).toBeLessThan(0.01);
  });

  it("reads a note that the value may be in another column: previews the table, then filters where the value is", () => {
    const venueQuestion = "What was the home team score at Victoria Park?";
    const venueHeaders = ["Home team", "Home team score", "Venue"];
    const tried = query("SELECT `Home team score` FROM `Matches` WHERE `Home team score` = 'Victoria Park';");
    const note =
      "[]\nNo rows matched. The value may be in another column than the one you filtered on: preview the whole table (SELECT * with a LIMIT) to see which column holds it, then query again.";
    const base = v02View(venueQuestion, "Matches", venueHeaders, [[tried, "[]"]]);
    const noted = v02View(venueQuestion, "Matches", venueHeaders, [[tried, note]]);
    expect(probability(noted, [], "kind:explore")).toBeGreaterThan(
      probability(base, [], "kind:explore") + 0.3,
    );
    expect(greedyAction(grammar, noted, prior)).toContain("SELECT * FROM `Matches`");
    const previewed = v02View(venueQuestion, "Matches", venueHeaders, [
      [tried, note],
      [query("SELECT * FROM `Matches` LIMIT 50;"), "[('Carlton', '16.11 (107)', 'Victoria Park')]"],
    ]);
    const condition = ["kind:query", "column:Home team score", "aggregate:none", "condition:add"];
    const holds = (label: string) =>
      optionFeature(grammar.next(previewed, condition), label, "column-holds-failed-value");
    expect(holds("column:Venue")).toBe(1);
    expect(holds("column:Home team score")).toBe(0);
    expect(greedyAction(grammar, previewed, prior)).toContain("WHERE `Venue` = 'Victoria Park'");
  });

  it("a query before the answer, COUNT(*), empty answers after a change and answers as returned follow their hints", () => {
    const fresh = v02View("Who is the Representative?", "US Ambassadors", headers);
    const selectHint = withHints(fresh, ["Run a SELECT on the table before giving the final answer."]);
    expect(probability(selectHint, [], "kind:answer")).toBeLessThan(probability(fresh, [], "kind:answer"));
    const counting = v02View("How many Representatives had the Title Ambassador?", "US Ambassadors", headers);
    const countHint = withHints(counting, [
      "For counting questions use COUNT(*) and answer with the number only.",
    ]);
    expect(probability(countHint, ["kind:query"], "column:*")).toBeGreaterThan(
      probability(counting, ["kind:query"], "column:*"),
    );
    const changed = v02View(
      "Add a Representative Ann Lee with the Title Ambassador.",
      "US Ambassadors",
      headers,
      [[query("INSERT INTO `US Ambassadors` (`Representative`) VALUES ('Ann Lee');"), "[]"]],
    );
    const modifyHint = withHints(changed, [
      "For INSERT or UPDATE tasks, execute the statement, then answer with an empty list.",
    ]);
    expect(probability(modifyHint, [], "kind:answer")).toBeGreaterThan(
      probability(changed, [], "kind:answer"),
    );
    const answered = v02View(question, "US Ambassadors", headers, [[failedQuery, "[('March 19, 1998',)]"]]);
    const exactHint = withHints(answered, [
      "Give the final answer exactly as the query returned it, as a list.",
    ]);
    const format = ["kind:answer", "result:0"];
    expect(probability(exactHint, format, "format:all")).toBeGreaterThan(
      probability(answered, format, "format:all"),
    );
  });

  it("an error suffix that says not to answer lowers the answer", () => {
    const turns: [string, string][] = [
      [query("SELECT `Title` FROM `US Ambassadors`;"), "[('Ambassador',)]"],
      [
        query("SELECT `Title` FROM `US Ambassadors` WHERE;"),
        "1064 (42000): You have an error in your SQL syntax",
      ],
    ];
    const base = v02View(question, "US Ambassadors", headers, turns);
    const suffixed = v02View(question, "US Ambassadors", headers, [
      turns[0] as [string, string],
      [
        turns[1]?.[0] ?? "",
        `${turns[1]?.[1]} The previous query failed; do not answer yet, correct it and run it again.`,
      ],
    ]);
    expect(probability(suffixed, [], "kind:answer")).toBeLessThan(probability(base, [], "kind:answer"));
  });

  it("a verification check confirms an answer that matches the last result and revises one that does not", () => {
    const check =
      "Before committing {answer}: does it match the last query result exactly? Submit again to confirm, or run another query.";
    const result = "[('March 19, 1998',)]";
    const matching = v02View(question, "US Ambassadors", headers, [
      [failedQuery, result],
      ['Action: Answer\nFinal Answer: ["March 19, 1998"]', check.replace("{answer}", '["March 19, 1998"]')],
    ]);
    const unchecked = v02View(question, "US Ambassadors", headers, [[failedQuery, result]]);
    expect(probability(matching, [], "kind:answer")).toBeGreaterThan(
      probability(unchecked, [], "kind:answer"),
    );
    const wrong = v02View(question, "US Ambassadors", headers, [
      [failedQuery, result],
      ['Action: Answer\nFinal Answer: ["1998"]', check.replace("{answer}", '["1998"]')],
    ]);
    expect(probability(wrong, [], "kind:answer")).toBeLessThan(probability(unchecked, [], "kind:answer"));
    expect(probability(wrong, [], "kind:query")).toBeGreaterThan(probability(unchecked, [], "kind:query"));
  });

  it("a hint on roles marks filter values in WHERE slots; one on whole names marks whole names over parts", () => {
    const base = v02View(
      "Change the country of Central Park Tower in the Skyscraper Database to Canada.",
      "Skyscraper Database",
      ["Building", "Country", "City"],
    );
    const hinted = withHints(base, [
      "The value after 'to' is the new value; the rows to change or read are the ones named after 'for', 'of' or 'where'.",
      "Use each name or date whole, as the question writes it (the full name, not a part of it).",
    ]);
    const step = grammar.next(hinted, [
      "kind:update",
      "column:Country",
      "value:Canada",
      "column:(where)",
      "column:Building",
    ]);
    expect(optionFeature(step, "value:Central Park Tower", "guide-roles")).toBe(1);
    expect(optionFeature(step, "value:Canada", "guide-roles")).toBe(-1);
    expect(optionFeature(step, "value:Central Park Tower", "guide-whole-names")).toBe(1);
    expect(optionFeature(step, "value:Park Tower", "guide-whole-names")).toBe(-1);
  });
});
