import { describe, expect, it } from "vitest";
import type { AppWorld } from "./create-appworld.js";
import defaultPlugin, { benchmarkPlugin } from "./index.js";

describe("benchmarkPlugin and its grammar", () => {
  it("is the default export and names its grammar package", () => {
    expect(defaultPlugin).toBe(benchmarkPlugin);
    expect(benchmarkPlugin.grammarModule).toBe("@hs/grammar-appworld");
  });

  it("has no actionGrammar unless hs hands it one", async () => {
    const benchmark = (await benchmarkPlugin.createBenchmark({ parallelism: "1" })) as AppWorld;
    expect(benchmark.actionGrammar).toBeUndefined();
    await benchmark.close();
  });

  it("exposes the grammar hs hands it as actionGrammar", async () => {
    const actionGrammar = {
      specificationVersion: "v1" as const,
      featureCount: 1,
      next: () => ({ done: true as const, content: "", toolCalls: [] }),
    };
    const benchmark = (await benchmarkPlugin.createBenchmark(
      { parallelism: "1" },
      { actionGrammar },
    )) as AppWorld;
    expect(benchmark.actionGrammar).toBe(actionGrammar);
    await benchmark.close();
  });
});
