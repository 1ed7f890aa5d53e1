import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createAppWorld } from "../create-appworld.js";
import { offlineTaskIds } from "../world/offline-tasks.js";

const appworld = createAppWorld({ parallelism: 2 });
afterAll(async () => {
  await appworld.close();
});

// The full replay of every split (219 tasks) is bench/appworld-gold-replay.mjs; the test replays the
// first scenario (three tasks) of each split.
describe("offline gold replay", () => {
  for (const split of ["train", "dev", "test"] as const) {
    it(`passes every reference solution and no empty solution on a sample of ${split}`, async () => {
      const file = join(tmpdir(), `appworld-gold-${process.pid}-${split}.txt`);
      await writeFile(file, offlineTaskIds(split).slice(0, 3).join("\n"));
      const report = await appworld.goldReplay?.({ tasks: { path: file } });
      expect(report?.failures).toEqual([]);
      expect(report).toMatchObject({ passed: 3, total: 3, emptyPassed: 0 });
    }, 90_000);
  }
});
