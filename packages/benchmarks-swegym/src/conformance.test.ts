import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertBenchmarkConformance } from "@hs/harness/conformance";
import { describe, it } from "vitest";
import { createSweGym, graderInstance, type SweGym } from "./create-swegym.js";

describe("SWE-Gym passes the benchmark conformance kit", () => {
  it("on held-out repositories: no patch or test in tasks or views, isolated workspaces, per-line errors", async () => {
    let current: SweGym | undefined;
    const dataFile = join(import.meta.dirname, "..", "data", "heldout-repos.jsonl");
    const [first, second] = (await readFile(dataFile, "utf8")).split("\n");
    const bad = join(tmpdir(), `hs-swegym-bad-${process.pid}.jsonl`);
    writeFileSync(bad, `${first}\n{"instance_id": 7}\n${second}\n`);
    await assertBenchmarkConformance({
      createBenchmark: async () => {
        // verdicts not cached, so that the kit's determinism check really grades twice
        current = await createSweGym({ cacheGrades: false });
        return current;
      },
      split: "heldout-repos",
      sampleSize: 2,
      goldOf: (task) => {
        const instance = current === undefined ? undefined : graderInstance(current, task.id);
        if (instance === undefined) return [];
        return [instance.patch, instance.test_patch, ...instance.FAIL_TO_PASS];
      },
      mutatingCall: () => ({ id: "m", name: "bash", arguments: { command: "rm -rf ./* && echo gone" } }),
      badRecord: { path: bad, line: 2 },
      goldReplay: false,
    });
  }, 300_000);
});
