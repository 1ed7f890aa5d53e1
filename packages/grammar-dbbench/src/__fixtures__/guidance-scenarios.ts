import type { ActionGrammarV1, PolicyView } from "@hs/spec";
import { v02View } from "./views.js";

/** Greedy choice under a linear score (the untrained embedded policy scores options by the prior alone). */
export function greedyAction(grammar: ActionGrammarV1, view: PolicyView, weights: readonly number[]): string {
  const chosen: string[] = [];
  for (let step = 0; step < 64; step++) {
    const next = grammar.next(view, chosen);
    if (next.done) return next.content;
    let best = next.decision.options[0];
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const option of next.decision.options) {
      const score = option.features.reduce((sum, value, index) => sum + value * (weights[index] ?? 0), 0);
      if (score > bestScore) {
        bestScore = score;
        best = option;
      }
    }
    if (best === undefined) throw new Error(`decision ${next.decision.name} has no options`);
    chosen.push(best.label);
  }
  throw new Error("the grammar did not finish within 64 decisions");
}

/** Base-harness views of dev-style tasks (questions, inserts, updates; before and after results). */
export function baseScenarios(): { name: string; view: PolicyView }[] {
  const ambassadors = [
    "Representative",
    "Title",
    "Presentation of Credentials",
    "Termination of Mission",
    "Appointed by",
  ];
  const ambassadorQuestion =
    "What is the Presentation of Credentials has a Termination of Mission listed as August 15, 2000?";
  const race = ["Class", "No", "Team", "Drivers", "Chassis", "Engine", "Laps"];
  const query = (sql: string) => `Action: Operation\n\`\`\`sql\n${sql}\n\`\`\``;
  return [
    { name: "question, first step", view: v02View(ambassadorQuestion, "US Ambassadors", ambassadors) },
    {
      name: "question after an empty result",
      view: v02View(ambassadorQuestion, "US Ambassadors", ambassadors, [
        [
          query(
            "SELECT `Presentation of Credentials` FROM `US Ambassadors` WHERE `Termination of Mission` = 'August 15, 2000';",
          ),
          "[]",
        ],
      ]),
    },
    {
      name: "question after a result",
      view: v02View(ambassadorQuestion, "US Ambassadors", ambassadors, [
        [
          query(
            "SELECT `Presentation of Credentials` FROM `US Ambassadors` WHERE `Termination of Mission` = 'August 15, 2000';",
          ),
          "[('March 19, 1998',)]",
        ],
      ]),
    },
    {
      name: "counting question",
      view: v02View("How many teams used the Lola chassis?", "race_results", race),
    },
    {
      name: "insert",
      view: v02View(
        "Add a new result: class GT, number 12, team Alpha Racing, drivers Ann Lee, chassis Lola, engine Ford, 200 laps.",
        "race_results",
        race,
      ),
    },
    {
      name: "update",
      view: v02View("Change the engine of team Alpha Racing to Honda.", "race_results", race),
    },
    {
      name: "after an error",
      view: v02View("Which team had the most laps?", "race_results", race, [
        [
          query("SELECT Team FROM race_results ORDER BY;"),
          "1064 (42000): You have an error in your SQL syntax",
        ],
      ]),
    },
  ];
}
