import { describe, expect, it } from "vitest";
import type { BenchmarkV1 } from "../spec/benchmark.js";
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
});
