import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertBenchmarkConformance } from "@hs/harness/conformance";
import { describe, it } from "vitest";
import { createAppWorld } from "./create-appworld.js";
import { offlineTaskIds, offlineTasks } from "./world/offline-tasks.js";

describe("AppWorld (offline) passes the benchmark conformance kit", () => {
  it("on dev: no solution, answer or expected change in tasks or views, isolated worlds", async () => {
    const [first, second] = offlineTaskIds("dev");
    const bad = join(tmpdir(), `hs-appworld-bad-${process.pid}.txt`);
    writeFileSync(bad, `${first}\nno_such_task_9\n${second}\n`);
    await assertBenchmarkConformance({
      // the isolation check holds three episodes at once, one world server each
      createBenchmark: () => createAppWorld({ parallelism: 3, timeoutSeconds: 5 }),
      split: "dev",
      sampleSize: 2,
      goldOf: (task) => {
        const gold = offlineTasks().get(task.id);
        if (gold === undefined) return [];
        const added = Object.values(gold.expectedDiff).flatMap((diff) => diff.added);
        return [gold.solution, ...(gold.answer === null ? [] : [String(gold.answer)]), ...added];
      },
      mutatingCall: () => ({
        id: "m",
        name: "execute",
        arguments: { code: 'apis.supervisor.complete_task(answer="anything")' },
      }),
      badRecord: { path: bad, line: 2 },
      goldReplay: false,
    });
  }, 300_000);
});
