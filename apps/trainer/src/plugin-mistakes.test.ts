import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "./main.js";

const tinyBenchmark = pathToFileURL(
  join(import.meta.dirname, "__fixtures__", "plugins", "tiny-benchmark", "index.js"),
).href;
const root = mkdtempSync(join(tmpdir(), "hs-plugin-mistakes-"));

async function run(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

/** The tiny benchmark plugin with one mistake: `change` rewrites the benchmark it creates. */
function mistaken(name: string, change: string): string {
  const file = join(root, `${name}.js`);
  writeFileSync(
    file,
    `import { benchmarkPlugin as tiny } from ${JSON.stringify(tinyBenchmark)};
export const benchmarkPlugin = {
  ...tiny,
  async createBenchmark(values, context) {
    const benchmark = await tiny.createBenchmark(values, context);
    return (${change})(benchmark);
  },
};
`,
  );
  return file;
}

describe("the CLI refuses a plugin's mistakes in the conformance kit's words", () => {
  it("a held-out split that is not in splits", async () => {
    const bench = mistaken("heldout", "(benchmark) => ({ ...benchmark, heldoutSplits: ['dev'] })");
    const result = await run(["eval", "--bench", bench]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("benchmark spelling: split dev is not in splits (train, test)");
  });

  it("gold in a task's metadata, even a two-character answer", async () => {
    const bench = mistaken(
      "gold",
      `(benchmark) => ({
        ...benchmark,
        goldOf: () => ["12"],
        async loadTasks(options) {
          const loaded = await benchmark.loadTasks(options);
          return { ...loaded, tasks: loaded.tasks.map((task) => ({ ...task, metadata: { label: 12 } })) };
        },
      })`,
    );
    const result = await run(["eval", "--bench", bench]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("benchmark spelling: spelling/test/0 holds gold: 12");
  });

  it("a declared split with no data file, named in the error", async () => {
    const bench = mistaken(
      "missing",
      `(benchmark) => ({
        ...benchmark,
        async loadTasks(options) {
          if (options.split === "test")
            throw Object.assign(new Error("ENOENT: no such file or directory, open 'data/test.jsonl'"), { code: "ENOENT" });
          return benchmark.loadTasks(options);
        },
      })`,
    );
    const result = await run(["eval", "--bench", bench]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("benchmark spelling: loadTasks of split test failed: ENOENT");
  });

  it("an environment whose close throws: the error names the call, the benchmark and the task", async () => {
    const bench = mistaken(
      "close",
      `(benchmark) => ({
        ...benchmark,
        async createEnvironment(task, options) {
          const environment = await benchmark.createEnvironment(task, options);
          return { ...environment, async close() { throw new Error("boom"); } };
        },
      })`,
    );
    const result = await run(["eval", "--bench", bench]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      "benchmark spelling: close() of the environment of task spelling/test/0 threw: boom",
    );
  });
});

describe("the CLI refuses a router that selects an id the pool lacks", () => {
  const bench = join(import.meta.dirname, "__fixtures__", "plugins", "tiny-benchmark");
  const router = join(root, "stray-router.js");
  const pool = join(root, "pool.json");
  beforeAll(async () => {
    writeFileSync(
      router,
      `export const routerPlugin = {
  specificationVersion: "v1",
  id: "stray",
  description: "selects a harness no pool has",
  createRouter() {
    return {
      specificationVersion: "v1",
      id: "stray",
      async route() {
        return { ranking: [{ harnessId: "no-such-sibling", score: 1, reasons: [] }], selected: ["no-such-sibling"] };
      },
    };
  },
};
`,
    );
    const evolved = await run(["evolve", "--bench", bench, "--out", pool, "--directions", "budget,guidance"]);
    expect(evolved.code, evolved.stderr).toBe(0);
  }, 120_000);

  it("hs train --method harness-s", async () => {
    const result = await run([
      ...["train", "--bench", bench, "--method", "harness-s", "--pool", pool, "--router", router],
      ...["--budget", "32", "--group-size", "4", "--prompts-per-step", "2", "--out", join(root, "run")],
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      'router stray: selected "no-such-sibling", which is not a sibling of the pool',
    );
  }, 120_000);
});
