import { goldReplayReportSchema, InvalidInputError } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { createDbBench, type DbBench } from "./create-dbbench.js";
import defaultPlugin, { benchmarkPlugin } from "./index.js";

describe("benchmarkPlugin", () => {
  it("is the named and the default export, names its grammar package and its options", () => {
    expect(defaultPlugin).toBe(benchmarkPlugin);
    expect(benchmarkPlugin.id).toBe("dbbench");
    expect(benchmarkPlugin.grammarModule).toBe("@hs/grammar-dbbench");
    expect(Object.keys(benchmarkPlugin.options).sort()).toEqual(["engine", "protocol", "query-time-limit"]);
  });

  it("creates the benchmark from its option values", async () => {
    const benchmark = (await benchmarkPlugin.createBenchmark({
      protocol: "fc",
      "query-time-limit": "500",
    })) as DbBench;
    expect(benchmark.id).toBe("dbbench");
    expect(await benchmark.engine.describe()).toMatch(/sqlite/i);
    expect(benchmark.actionGrammar).toBeUndefined();
    await benchmark.close();
  });

  it("exposes the grammar hs hands it as actionGrammar", async () => {
    const actionGrammar = {
      specificationVersion: "v1" as const,
      featureCount: 1,
      next: () => ({ done: true as const, content: "", toolCalls: [] }),
    };
    const benchmark = (await benchmarkPlugin.createBenchmark({}, { actionGrammar })) as DbBench;
    expect(benchmark.actionGrammar).toBe(actionGrammar);
    await benchmark.close();
  });

  it.each([
    [{ engine: "postgres://x" }, "--engine"],
    [{ protocol: "v0.3" }, "--protocol"],
    [{ "query-time-limit": "0" }, "--query-time-limit"],
    [{ "query-time-limit": "0x10" }, "--query-time-limit"],
  ])("rejects %j naming %s", async (values, field) => {
    const attempt = benchmarkPlugin.createBenchmark(values);
    await expect(attempt).rejects.toBeInstanceOf(InvalidInputError);
    await expect(attempt).rejects.toThrow(field);
  });
});

describe("BenchmarkV1.goldReplay", () => {
  it("passes every graded dev task, and an empty answer passes none (SQLite)", async () => {
    const benchmark = createDbBench();
    const progress: number[] = [];
    const report = await benchmark.goldReplay({
      tasks: { split: "dev" },
      onProgress: (done) => progress.push(done),
    });
    await benchmark.close();
    expect(goldReplayReportSchema.parse(report)).toEqual(report);
    expect([report.passed, report.total, report.emptyPassed]).toEqual([59, 59, 0]);
    expect(report.failures).toEqual([]);
    expect(report.details).toMatchObject({
      protocol: "v0.2",
      perType: { INSERT: { passed: 20, total: 20 } },
    });
    expect(progress.at(-1)).toBe(59);
  });

  it("does not replay a query whose label is empty (any empty answer passes it): it names the record", async () => {
    const record = {
      description: "Which player scored 99 points?",
      label: [],
      table: {
        table_name: "Scorers",
        table_info: { columns: [{ name: "Player" }, { name: "Points" }], rows: [["Ann", "3"]] },
      },
      type: ["other"],
    };
    const benchmark = createDbBench({ readFile: async () => JSON.stringify(record) });
    const report = await benchmark.goldReplay({ tasks: { path: "empty-label.jsonl" } });
    await benchmark.close();
    expect(report).toMatchObject({ total: 0, emptyPassed: 0 });
    expect(report.problems).toEqual([
      expect.stringMatching(/empty-label\.jsonl:1, field "label": .* so an empty answer would pass/),
    ]);
  });

  it("stops when the signal is aborted", async () => {
    const benchmark = createDbBench();
    const controller = new AbortController();
    controller.abort();
    await expect(
      benchmark.goldReplay({ tasks: { split: "dev" }, signal: controller.signal }),
    ).rejects.toThrow();
    await benchmark.close();
  });
});
