import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { assertBenchmarkConformance } from "@hs/harness/conformance";
import type { BenchmarkPluginV1, Task } from "@hs/spec";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "./main.js";
import { importPluginModule, loadBenchmarkPlugin } from "./plugins.js";

const fixtures = join(import.meta.dirname, "__fixtures__", "plugins");
const workspacePackages = resolve(import.meta.dirname, "..", "..", "..", "packages");
const words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];

async function run(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

/** A project outside the workspace holding the two packages, with @hs/spec and @hs/harness installed beside them. */
function outsideProject(): string {
  const root = mkdtempSync(join(tmpdir(), "hs-plugins-"));
  cpSync(fixtures, root, { recursive: true });
  mkdirSync(join(root, "node_modules", "@hs"), { recursive: true });
  for (const name of ["spec", "harness"])
    symlinkSync(join(workspacePackages, name), join(root, "node_modules", "@hs", name), "dir");
  return root;
}

describe("benchmark and router packages from outside the repository", () => {
  let root = "";
  let bench = "";
  let router = "";
  beforeAll(() => {
    root = outsideProject();
    bench = join(root, "tiny-benchmark");
    router = join(root, "reverse-router");
    process.env.REVERSE_ROUTER_LOG = join(root, "router.log");
  });

  it("passes the benchmark conformance kit", async () => {
    const plugin = await loadBenchmarkPlugin(bench);
    const badFile = join(root, "bad.jsonl");
    writeFileSync(badFile, '{"digit": 2}\n{"digit": "two"}\n{"digit": 4}\n');
    const digitOf = (task: Task) => Number(/digit (\d)/.exec(task.instruction)?.[1]);
    await assertBenchmarkConformance({
      createBenchmark: () => plugin.createBenchmark({}),
      goldOf: (task) => [words[digitOf(task)] ?? ""].filter((word) => word.length >= 4),
      mutatingCall: (task) => ({ id: "m", name: "submit", arguments: { answer: words[digitOf(task)] } }),
      badRecord: { path: badFile, line: 2 },
    });
  });

  it("runs hs eval, hs evolve, hs train --router and hs route by path", async () => {
    const evaluated = await run(["eval", "--bench", bench, "--max-digit", "6", "--json"]);
    expect(evaluated.stderr).toBe("eval: 3/3 episodes\n");
    expect(JSON.parse(evaluated.stdout)).toMatchObject({ n: 3, success: 0, harness: "spelling-text" });

    const pool = join(root, "pool.json");
    const evolved = await run(["evolve", "--bench", bench, "--out", pool, "--directions", "budget,guidance"]);
    expect(evolved.code).toBe(0);
    const siblings = (
      JSON.parse(readFileSync(pool, "utf8")) as { siblings: { id: string; direction: string }[] }
    ).siblings;
    expect(siblings.map((sibling) => sibling.direction)).toContain("budget");

    const out = join(root, "run");
    const trained = await run([
      ...["train", "--bench", bench, "--method", "harness-s", "--pool", pool, "--router", router],
      ...["--budget", "64", "--group-size", "4", "--prompts-per-step", "2", "--out", out],
      ...["--rescue-gate", "yield"],
    ]);
    expect(trained.code).toBe(0);
    expect(existsSync(join(out, "final", "policy.json"))).toBe(true);
    const config = JSON.parse(readFileSync(join(out, "config.json"), "utf8")) as {
      rescue: { gate?: string };
    };
    expect(config.rescue.gate).toBe("yield");
    const log = readFileSync(join(root, "router.log"), "utf8").split("\n");
    expect(log[0]).toBe("created");
    expect(log.filter((line) => line.startsWith("routed 4")).length).toBeGreaterThan(0);

    const routed = await run([
      "route",
      "--pool",
      pool,
      "--trajectories",
      join(out, "trajectories.jsonl"),
      "--router",
      router,
      "--k",
      "1",
      "--json",
    ]);
    expect(routed.code).toBe(0);
    const decision = JSON.parse(routed.stdout.split("\n")[0] ?? "") as { router: string; selected: string[] };
    expect(decision.router).toBe("reverse");
    expect(decision.selected).toEqual([[...siblings.map((sibling) => sibling.id)].sort().reverse()[0]]);
  }, 120_000);

  it("runs the main job (hs quickstart) on it, evaluating every held-out split", async () => {
    const out = join(root, "quickstart");
    const routerCreations = () =>
      existsSync(join(root, "router.log"))
        ? readFileSync(join(root, "router.log"), "utf8")
            .split("\n")
            .filter((line) => line === "created").length
        : 0;
    const creationsBefore = routerCreations();
    const result = await run([
      ...["quickstart", "--bench", bench, "--max-digit", "9", "--methods", "grpo,harness-s"],
      ...["--prompts-per-step", "2", "--workers", "2", "--out", out, "--json", "--serve"],
      ...["--router", router, "--rescue-gate", "yield"],
    ]);
    expect(result.code, result.stderr).toBe(0);
    const gateOf = (method: string) =>
      (
        JSON.parse(readFileSync(join(out, "runs", method, "seed-1", "config.json"), "utf8")) as {
          rescue: { gate?: string };
        }
      ).rescue.gate;
    expect([gateOf("grpo"), gateOf("harness-s")]).toEqual([undefined, "yield"]);
    // the router plugin was created in each harness-s training run and Rank-1 evaluation (2 seeds each)
    expect(routerCreations() - creationsBefore).toBe(4);
    // --serve prints the live dashboard's address
    expect(result.stderr).toMatch(/\[quickstart\] dashboard: http:\/\/127\.0\.0\.1:\d+\//);
    const results = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(results).toMatchObject({ heldout_splits: ["test"], seeds: [1, 2] });
    expect(results.settings).toMatchObject({
      budget: 32,
      rescueGate: "yield",
      stageFlags: {
        evolve: ["--rollouts", "2"],
        profile: ["--rollouts", "2"],
        train: ["--group-size", "4", "--prompts-per-step", "2"],
      },
    });
    const heldout = results.heldout as Record<string, number[]>;
    expect(Object.keys(heldout).sort()).toEqual(["grpo", "harness-s"]);
    expect(results.heldout_by_split).toEqual({ test: heldout });
    expect((results.untrained_by_split as Record<string, number[]>).test).toHaveLength(2);
    expect((results.rank1 as { rank1: number[] }).rank1).toHaveLength(2);
    for (const value of Object.values(heldout).flat()) expect(value).toBeGreaterThanOrEqual(0);
    expect(existsSync(join(out, "untrained", "seed-2", "eval-test.json"))).toBe(true);
    expect(existsSync(join(out, "report", "index.html"))).toBe(true);
  }, 180_000);

  it("lists the plugin's own options in --help and passes their values", async () => {
    const help = await run(["eval", "--bench", bench, "--help"]);
    expect(help.stdout).toContain("Options of benchmark spelling");
    expect(help.stdout).toContain("--max-digit VALUE");
    const bad = await run(["eval", "--bench", bench, "--no-such"]);
    expect(bad.code).toBe(2);
  });

  it("names what is wrong with a module that is not a plugin", async () => {
    const file = join(root, "not-a-plugin.js");
    writeFileSync(
      file,
      "export const benchmarkPlugin = { specificationVersion: 'v1', id: 'x', description: '', options: {} };\n",
    );
    const result = await run(["eval", "--bench", file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('field "createBenchmark": expected a function');
    const missing = await run(["eval", "--bench", "no-such-benchmark-package"]);
    expect(missing.stderr).toContain('cannot find the package "no-such-benchmark-package"');
    expect((await run(["eval", "--bench", join(root, "nowhere.js")])).stderr).toContain("no such file");
  });

  it("runs hs profile and hs route on a pool evolved from a plugin by path without --bench", async () => {
    const pool = join(root, "pool-for-profile.json");
    const evolve = ["evolve", "--bench", bench, "--max-digit", "6", "--out", pool, "--directions", "budget"];
    expect((await run(evolve)).code).toBe(0);
    const out = join(root, "profiles-without-bench.json");
    const profiled = await run([
      "profile",
      "--pool",
      pool,
      "--policy",
      "embedded",
      "--rollouts",
      "2",
      "--out",
      out,
    ]);
    expect(profiled.code, profiled.stderr).toBe(0);
    // the plugin's own option (--max-digit 6: train digits 1, 2, 4, 5) came with it: 4 tasks x 2 rollouts
    expect(profiled.stdout).toMatch(/^spelling-text: success [\d.]+% of 8\b/m);
    const failed = join(root, "profiles-without-bench.failed.jsonl");
    const routed = await run(["route", "--pool", pool, "--profiles", out, "--trajectories", failed]);
    expect(routed.code, routed.stderr).toBe(0);
    expect(routed.stderr).not.toContain("is not installed");
    // a pool without its evolution report does not say where its plugin was: --bench is asked for
    const alone = join(root, "pool-alone.json");
    cpSync(pool, alone);
    const refused = await run(["profile", "--pool", alone, "--policy", "embedded", "--out", `${out}.2`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('give --bench: the pool\'s benchmark "spelling" is not an alias');
  });

  it("prints the benchmark's own metric names in hs eval, not DBBench's", async () => {
    const human = await run(["eval", "--bench", bench, "--max-digit", "6"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^ {2}accuracy +0\b/m);
    expect(human.stdout).not.toContain("overall_cat_accuracy");
    const json = JSON.parse((await run(["eval", "--bench", bench, "--max-digit", "6", "--json"])).stdout);
    expect(json.metrics).toEqual({ accuracy: 0 });
    expect(Object.keys(json)).not.toContain("overall_cat_accuracy");
    expect(Object.keys(json)).not.toContain("trivial_value_passes");
    const dev = join(import.meta.dirname, "../../../packages/benchmarks-dbbench/data/dev.jsonl");
    const four = join(root, "four.jsonl");
    writeFileSync(four, `${readFileSync(dev, "utf8").split("\n").slice(40, 44).join("\n")}\n`);
    const dbbench = await run(["eval", "--bench", "dbbench", "--data", four]);
    expect(dbbench.stdout).toMatch(/^ {2}overall_cat_accuracy +\d/m);
  });

  it("loads a relative grammarModule from beside the plugin file, whatever the current directory", async () => {
    const plugin = join(root, "split-grammar");
    expect(process.cwd()).not.toBe(plugin);
    const evaluated = await run(["eval", "--bench", plugin, "--max-digit", "6", "--json"]);
    expect(evaluated.code, evaluated.stderr).toBe(0);
    expect(JSON.parse(evaluated.stdout)).toMatchObject({ n: 3, harness: "spelling-text" });
  });

  it("imports a package installed in the current project's node_modules", async () => {
    const module = await importPluginModule("@hs/harness", root);
    expect(typeof module.createHarnessConfig).toBe("function");
    const plugin = (await importPluginModule(bench)).benchmarkPlugin as BenchmarkPluginV1;
    expect(plugin.id).toBe("spelling");
  });
});
