import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appendTrajectories, readTrajectories } from "./jsonl.js";
import { runEpisode } from "./runtime/run-episode.js";
import { createLookupBenchmark, createScriptedPolicy, lookupTextHarness } from "./test-environments/index.js";

describe("trajectory JSONL", () => {
  it("round-trips and reports a corrupt or truncated line by file and line without losing the others", async () => {
    const benchmark = createLookupBenchmark();
    const { tasks } = await benchmark.loadTasks({});
    const trajectories = await Promise.all(
      tasks.slice(0, 3).map((task, seed) =>
        runEpisode({
          task,
          benchmark,
          harness: lookupTextHarness,
          policy: createScriptedPolicy(["answer: Paris"]),
          seed,
        }),
      ),
    );
    const file = join(await mkdtemp(join(tmpdir(), "hs-jsonl-")), "runs", "trajectories.jsonl");
    await appendTrajectories(file, trajectories);
    const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    const wrongType = JSON.stringify({ ...JSON.parse(lines[2]!), reward: "high" });
    await writeFile(file, `${lines[0]}\n${lines[1]!.slice(0, 80)}\n\n${wrongType}\n${lines[2]}\n`);
    const { records, problems } = await readTrajectories(file);
    expect(records.map((record) => record.taskId)).toEqual([tasks[0]!.id, tasks[2]!.id]);
    expect(problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(new RegExp(`${file}:2: not valid JSON`)),
      expect.stringMatching(new RegExp(`${file}:4, field "reward": `)),
    ]);
    expect(problems[0]?.location).toEqual({ file, line: 2 });
  });
});
