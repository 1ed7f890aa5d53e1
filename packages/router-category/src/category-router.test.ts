import { assertRouterConformance, conformanceFixtures } from "@hs/router";
import { describe, expect, it } from "vitest";
import { createCategoryRouter } from "./category-router.js";

describe("category router", () => {
  it("passes the @hs/router conformance kit", async () => {
    const report = await assertRouterConformance(() => createCategoryRouter());
    expect(report.checks.every((check) => check.passed)).toBe(true);
  });

  it("prefers the sibling with the best success on the task's category", async () => {
    const fixtures = conformanceFixtures();
    const decision = await createCategoryRouter().route({
      task: fixtures.task,
      failedGroup: fixtures.failedGroup,
      pool: fixtures.pool,
      profiles: fixtures.profiles,
      k: 1,
      seed: 0,
    });
    expect(decision.selected).toEqual(["sibling-guidance"]);
    expect(decision.ranking[0]?.reasons).toEqual(["40% success on select"]);
  });
});
