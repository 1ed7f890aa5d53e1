import { afterAll, describe, expect, it } from "vitest";
import { createAppWorld } from "../create-appworld.js";

const appworld = createAppWorld({ parallelism: 3 });
afterAll(async () => {
  await appworld.close();
});

describe("offline gold replay", () => {
  for (const split of ["train", "dev", "test"]) {
    it(`passes every reference solution and no empty solution on ${split}`, async () => {
      const report = await appworld.goldReplay?.({ tasks: { split } });
      expect(report?.failures).toEqual([]);
      expect(report?.total).toBeGreaterThan(0);
      expect(report?.passed).toBe(report?.total);
      expect(report?.emptyPassed).toBe(0);
    }, 120_000);
  }
});
