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

describe("benchmarkPlugin's real-server options", () => {
  it("refuses bad values with the option's name", async () => {
    const urls = { "server-urls": "http://127.0.0.1:1" };
    await expect(benchmarkPlugin.createBenchmark({ ...urls, "max-interactions": "0" })).rejects.toThrow(
      /--max-interactions must be an integer of at least 1, got "0"/,
    );
    await expect(benchmarkPlugin.createBenchmark({ ...urls, "random-seed": "1.5" })).rejects.toThrow(
      /--random-seed must be an integer/,
    );
    await expect(benchmarkPlugin.createBenchmark({ ...urls, "remote-apis-url": "ftp://x" })).rejects.toThrow(
      /not an http\(s\) URL: "ftp:\/\/x"/,
    );
    await expect(benchmarkPlugin.createBenchmark({ ...urls, "timeout-seconds": "2.5" })).rejects.toThrow(
      /whole seconds for a real server/,
    );
  });

  it("offers a gold replay on real servers that asks for the AppWorld root", async () => {
    const benchmark = (await benchmarkPlugin.createBenchmark({
      "server-urls": "http://127.0.0.1:1",
    })) as AppWorld;
    await expect(benchmark.goldReplay?.({ tasks: { path: "/nonexistent" } })).rejects.toThrow(
      /reads the ground truth under --appworld-root/,
    );
    await benchmark.close();
  });
});
