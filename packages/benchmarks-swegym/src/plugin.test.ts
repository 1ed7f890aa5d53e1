import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import defaultPlugin, { benchmarkPlugin } from "./index.js";

const mirror = mkdtempSync(join(tmpdir(), "hs-swegym-plugin-"));
afterAll(() => rmSync(mirror, { recursive: true, force: true }));

describe("benchmarkPlugin grammar", () => {
  it("is the named and the default export and names its grammar package", () => {
    expect(defaultPlugin).toBe(benchmarkPlugin);
    expect(benchmarkPlugin.grammarModule).toBe("@hs/grammar-swegym");
  });

  it("has no action grammar when hs hands it none", async () => {
    const benchmark = await benchmarkPlugin.createBenchmark({ repos: mirror });
    expect(benchmark.actionGrammar).toBeUndefined();
  });

  it("exposes the grammar hs hands it as actionGrammar", async () => {
    const actionGrammar = {
      specificationVersion: "v1" as const,
      featureCount: 1,
      next: () => ({ done: true as const, content: "", toolCalls: [] }),
    };
    const benchmark = await benchmarkPlugin.createBenchmark({ repos: mirror }, { actionGrammar });
    expect(benchmark.actionGrammar).toBe(actionGrammar);
  });
});
