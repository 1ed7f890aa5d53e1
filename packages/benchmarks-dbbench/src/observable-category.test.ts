import type { Task } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { createDbBench } from "./create-dbbench.js";
import { observableCategory } from "./observable-category.js";

const task = (description: string): Task => ({
  id: "t",
  benchmark: "dbbench",
  split: "s",
  category: "hidden",
  instruction: `${description}\n`,
  metadata: { description },
});

describe("observableCategory", () => {
  it.each([
    ["Insert a new row for Bo with 4 points.", "INSERT"],
    ["The Rangers' home stadium is Ibrox.", "INSERT"],
    ["Change the Points of Ann to 5.", "UPDATE"],
    ["How many players scored 3 points?", "counting"],
    ["What is the average number of points of Ann?", "aggregation-AVG"],
    ["What is the total of points for Leeds?", "aggregation-SUM"],
    ["Which team had fewer than 3 wins?", "comparison"],
    ["Who has the highest rank?", "ranking"],
    ["What is the largest crowd?", "aggregation-MAX"],
    ["When was the earliest game?", "aggregation-MIN"],
    ["What is the venue of the final?", "other"],
  ])("reads %j as %s", (description, category) => {
    expect(observableCategory(task(description))).toBe(category);
  });

  it("reads only the description the policy sees, not the dataset's type", () => {
    const shown = task("How many players scored 3 points?");
    expect(observableCategory({ ...shown, category: "INSERT" })).toBe(observableCategory(shown));
  });

  it("agrees with the dataset's type on most dev tasks and on INSERT/UPDATE/query almost always", async () => {
    const benchmark = createDbBench();
    const { tasks } = await benchmark.loadTasks({ split: "dev" });
    await benchmark.close();
    const coarse = (category: string) =>
      category === "INSERT" || category === "UPDATE" ? category : "query";
    const exact = tasks.filter((entry) => observableCategory(entry) === entry.category).length;
    const kind = tasks.filter((entry) => coarse(observableCategory(entry)) === coarse(entry.category)).length;
    // measured: 43/59 exact, 56/59 INSERT/UPDATE/query (bench/dbbench-observable-category.mjs)
    expect([exact, kind]).toEqual([43, 56]);
  });
});
