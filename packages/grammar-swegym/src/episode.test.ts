import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSweGym, type SweGym } from "@hs/benchmarks-swegym";
import { runEpisode } from "@hs/harness";
import { probeEpisode } from "@hs/harness/conformance";
import { createEmbeddedPolicy } from "@hs/policy-embedded";
import type { PolicyView } from "@hs/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSweGymGrammar } from "./swegym-grammar.js";

const grammar = createSweGymGrammar();
let benchmark: SweGym;
const scratch = mkdtempSync(join(tmpdir(), "hs-grammar-swegym-"));

beforeAll(async () => {
  benchmark = await createSweGym({ actionGrammar: grammar });
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function trainRecord(instanceId: string): Record<string, unknown> {
  const file = new URL("../../benchmarks-swegym/data/train.jsonl", import.meta.url);
  const line = readFileSync(file, "utf8")
    .split("\n")
    .find(
      (entry) =>
        entry.includes(`"instance_id":"${instanceId}"`) || entry.includes(`"instance_id": "${instanceId}"`),
    );
  if (line === undefined) throw new Error(`no train instance ${instanceId}`);
  return JSON.parse(line) as Record<string, unknown>;
}

describe("an episode with the embedded policy", () => {
  it("runs the untrained policy through runEpisode on a bundled instance to a graded submission", async () => {
    const { tasks } = await benchmark.loadTasks({ split: "train" });
    const task = tasks.find((entry) => entry.metadata.instanceId === "harness-s__durations-4");
    if (task === undefined) throw new Error("no durations-4");
    const policy = await createEmbeddedPolicy({ grammar, seed: 0 });
    const harness = benchmark.presets[benchmark.defaultPreset];
    if (harness === undefined) throw new Error("no default preset");
    const trajectory = await runEpisode({ task, benchmark, harness, policy, seed: 1, mode: "greedy" });
    expect(trajectory.endReason).toBe("submitted");
    expect(trajectory.steps.length).toBeGreaterThanOrEqual(4);
    // explore, search, show, at most three edits each tested and reverted, submit
    expect(trajectory.steps.length).toBeLessThanOrEqual(13);
    const commands = trajectory.steps.map((step) => String(step.parsed?.[0]?.arguments.command ?? ""));
    expect(commands[0]).toMatch(/^find \. -name/);
    expect(commands.some((command) => command.includes("<<'HS_EDIT'"))).toBe(true);
    expect(commands.at(-1)).toMatch(/^echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT/);
    expect(trajectory.gradeDetails).toHaveProperty("resolved");
    expect([0, 1]).toContain(trajectory.reward);
  });
});

describe("the gold does not reach the grammar", () => {
  it("two instances with the same statement and repository but different gold give the same decisions", async () => {
    const original = trainRecord("harness-s__durations-4");
    const other = trainRecord("harness-s__durations-1");
    const twin = {
      ...original,
      instance_id: "harness-s__durations-twin",
      patch: other.patch,
      test_patch: other.test_patch,
      FAIL_TO_PASS: other.FAIL_TO_PASS,
      PASS_TO_PASS: other.PASS_TO_PASS,
    };
    const path = join(scratch, "twins.jsonl");
    writeFileSync(path, `${JSON.stringify(original)}\n${JSON.stringify(twin)}\n`);
    const { tasks } = await benchmark.loadTasks({ path });
    const harness = benchmark.presets["tool-calling"];
    if (harness === undefined || tasks.length !== 2) throw new Error("setup");
    const [first, second] = await Promise.all(tasks.map((task) => probeEpisode(benchmark, task, harness)));
    const decisions = (views: readonly PolicyView[]) =>
      views.map((view) => {
        const step = grammar.next(view, []);
        return step.done ? [] : step.decision.options;
      });
    expect(second?.views).toEqual(first?.views);
    expect(decisions(second?.views ?? [])).toEqual(decisions(first?.views ?? []));
    expect(decisions(first?.views ?? [])[0]?.length).toBeGreaterThan(1);
  });
});
