import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDbBench } from "@hs/benchmarks-dbbench";
import { createDbBenchGrammar } from "@hs/grammar-dbbench";
import { runEpisode } from "@hs/harness";
import { createEmbeddedPolicy } from "@hs/policy-embedded";
import type { PolicyView } from "@hs/spec";
import { describe, expect, it } from "vitest";

const devFile = join(
  dirname(fileURLToPath(import.meta.url)),
  "../../../../packages/benchmarks-dbbench/data/dev.jsonl",
);

/** Every decision of every step: the grammar's options (labels and features) and the chosen label. */
function decisionsOf(
  policy: Awaited<ReturnType<typeof createEmbeddedPolicy>>,
  steps: readonly { view: PolicyView; action: { trace?: unknown } }[],
): string {
  return JSON.stringify(
    steps.map((step) => {
      const replayed = policy.replay(step.view, step.action.trace);
      return replayed.decisions.map((decision, index) => ({
        name: decision.name,
        options: decision.options.map((option) => [option.label, option.features]),
        chosen: replayed.chosen[index],
      }));
    }),
  );
}

describe("the embedded policy cannot see labels", () => {
  it("offers the same options and makes the same choices when label, sql and answer_md5 are deleted or replaced", async () => {
    const lines = readFileSync(devFile, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "");
    const stripped = lines.map((line) => {
      const {
        label: _label,
        sql: _sql,
        answer_md5: _md5,
        ...rest
      } = JSON.parse(line) as Record<string, unknown>;
      // every task must keep something to grade by (the loader rejects one that any empty answer
      // passes): a decoy hash for a change task, a decoy label for a query
      return JSON.stringify(
        _md5 === undefined ? { ...rest, label: ["decoy"] } : { ...rest, answer_md5: "0".repeat(32) },
      );
    });
    const strippedFile = join(tmpdir(), `hs-dev-stripped-${process.pid}.jsonl`);
    writeFileSync(strippedFile, `${stripped.join("\n")}\n`);
    const grammar = createDbBenchGrammar();
    const original = createDbBench({ actionGrammar: grammar });
    const blind = createDbBench({ actionGrammar: grammar });
    const { tasks, problems } = await original.loadTasks({ path: devFile });
    const { tasks: blindTasks, problems: blindProblems } = await blind.loadTasks({ path: strippedFile });
    expect(blindProblems.map((problem) => problem.location)).toEqual(
      problems.map((problem) => ({ ...problem.location, file: strippedFile })),
    );
    expect(blindTasks).toHaveLength(tasks.length);
    const policy = await createEmbeddedPolicy({ grammar, seed: 3 });
    const harness = original.presets[original.defaultPreset];
    if (harness === undefined) throw new Error("no base preset");
    // queries, inserts and updates; sampled and greedy episodes
    const picked = [0, 4, 8, 12, 16, 20, 24, 30, 40, 44, 50, 57];
    let decisions = 0;
    for (const index of picked) {
      for (const mode of ["sample", "greedy"] as const) {
        const seen = await runEpisode({
          task: tasks[index]!,
          benchmark: original,
          harness,
          policy,
          seed: index,
          mode,
        });
        const blindSeen = await runEpisode({
          task: blindTasks[index]!,
          benchmark: blind,
          harness,
          policy,
          seed: index,
          mode,
        });
        expect(blindSeen.steps.map((step) => step.action.content)).toEqual(
          seen.steps.map((step) => step.action.content),
        );
        const withLabels = decisionsOf(policy, seen.steps);
        expect(decisionsOf(policy, blindSeen.steps)).toBe(withLabels);
        decisions += withLabels.length;
      }
    }
    expect(decisions).toBeGreaterThan(0);
    policy.dispose();
    await original.close();
    await blind.close();
  }, 60_000);
});
