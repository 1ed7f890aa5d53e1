import type { BenchmarkV1 } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { createLookupBenchmark } from "../test-environments/lookup-benchmark.js";
import { assertBenchmarkConformance, checkBenchmarkConformance } from "./benchmark-conformance.js";

const capitals: Record<string, string> = { france: "Paris", peru: "Lima", japan: "Tokyo", kenya: "Nairobi" };
const goldOf = (task: { metadata: Record<string, unknown> }) => [capitals[String(task.metadata.key)] ?? ""];

function failedNames(report: Awaited<ReturnType<typeof checkBenchmarkConformance>>): string[] {
  return report.checks.filter((check) => !check.passed).map((check) => check.name);
}

describe("the benchmark conformance kit", () => {
  it("passes the lookup test benchmark, whose answers stay in its grader", async () => {
    const report = await assertBenchmarkConformance({
      createBenchmark: createLookupBenchmark,
      goldOf,
      mutatingCall: () => ({ id: "m", name: "submit", arguments: { answer: "Paris" } }),
    });
    expect(report.checks.length).toBeGreaterThanOrEqual(6);
  });

  it("fails a benchmark whose instruction carries the answer", async () => {
    const leaky = (): BenchmarkV1 => {
      const benchmark = createLookupBenchmark();
      return {
        ...benchmark,
        async loadTasks(options) {
          const loaded = await benchmark.loadTasks(options);
          const tasks = loaded.tasks.map((task) => ({
            ...task,
            instruction: `${task.instruction} (it is ${capitals[String(task.metadata.key)]})`,
          }));
          return { ...loaded, tasks };
        },
      };
    };
    const report = await checkBenchmarkConformance({ createBenchmark: leaky, goldOf });
    expect(report.passed).toBe(false);
    expect(failedNames(report)).toEqual([
      "split train loads; tasks are valid and hold no gold",
      "no gold in any view under any preset",
    ]);
  });

  it("fails episodes that share a world and a close that throws the second time", async () => {
    const shared = (): BenchmarkV1 => {
      const benchmark = createLookupBenchmark();
      let world: { answer: string | null } = { answer: null };
      return {
        ...benchmark,
        async createEnvironment(task, options) {
          const inner = await benchmark.createEnvironment(task, options);
          let closed = false;
          return {
            ...inner,
            async step(call) {
              if (call.name === "submit") world.answer = String(call.arguments.answer);
              return inner.step(call);
            },
            async grade() {
              return { reward: world.answer === null ? 0 : 1, success: world.answer !== null, details: {} };
            },
            async close() {
              if (closed) throw new Error("closed twice");
              closed = true;
              world = { answer: null };
            },
          };
        },
      };
    };
    const report = await checkBenchmarkConformance({
      createBenchmark: shared,
      goldOf,
      mutatingCall: () => ({ id: "m", name: "submit", arguments: { answer: "x" } }),
    });
    expect(failedNames(report)).toContain(
      "episodes of one task share nothing; grading is deterministic; close is idempotent",
    );
  });

  it("fails a held-out split that is not in splits, in the words the CLI uses", async () => {
    const report = await checkBenchmarkConformance({
      createBenchmark: () => ({ ...createLookupBenchmark(), heldoutSplits: ["dev"] }),
      goldOf,
    });
    const contract = report.checks.find((check) => check.name === "fields of the contract");
    expect(contract?.passed).toBe(false);
    expect(contract?.detail).toBe("split dev is not in splits (train)");
  });

  it("fails a short secret that is a whole metadata value, and not one inside a longer text", async () => {
    const numeric = (): BenchmarkV1 => {
      const benchmark = createLookupBenchmark();
      return {
        ...benchmark,
        async loadTasks(options) {
          const loaded = await benchmark.loadTasks(options);
          return {
            ...loaded,
            tasks: loaded.tasks.map((task) => ({ ...task, metadata: { ...task.metadata, n: 12 } })),
          };
        },
      };
    };
    const leaked = await checkBenchmarkConformance({ createBenchmark: numeric, goldOf: () => ["12"] });
    expect(failedNames(leaked)).toContain("split train loads; tasks are valid and hold no gold");
    expect(leaked.checks.find((check) => !check.passed)?.detail).toMatch(/holds gold: 12$/);
    const inText = await checkBenchmarkConformance({ createBenchmark: numeric, goldOf: () => ["2"] });
    expect(failedNames(inText)).not.toContain("split train loads; tasks are valid and hold no gold");
  });

  it("loads every declared split, not only the training split", async () => {
    const missing = (): BenchmarkV1 => {
      const benchmark = createLookupBenchmark();
      return {
        ...benchmark,
        splits: ["train", "test"],
        async loadTasks(options) {
          if (options.split === "test")
            throw Object.assign(new Error("ENOENT: no such file or directory, open 'data/test.jsonl'"), {
              code: "ENOENT",
            });
          return benchmark.loadTasks(options);
        },
      };
    };
    const report = await checkBenchmarkConformance({ createBenchmark: missing, goldOf });
    const splits = report.checks.find(
      (check) => check.name === "every other declared split loads and has tasks",
    );
    expect(splits?.passed).toBe(false);
    expect(splits?.detail).toMatch(/^split test does not load: ENOENT/);
  });
});
