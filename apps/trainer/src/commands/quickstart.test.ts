import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseWithTable } from "../main.js";
import { runCliJobs } from "../run-jobs.js";
import { quickstartCommand, quickstartPlan, withHeartbeat } from "./quickstart.js";
import { experimentFingerprint } from "./quickstart-inputs.js";

describe("quickstartPlan", () => {
  const settings = {
    benchmarkArgs: ["--bench", "./my-bench.js", "--max-digit", "5"],
    out: "/x",
    seeds: [1, 2],
    methods: ["grpo", "dapo", "harness-s"],
    budget: 500,
    workers: 2,
    evolveTasks: 40,
    reanchorEvery: 4,
    heldoutSplits: ["heldout", "heldout-repos"],
  };

  it("trains every method and seed at the same rollout budget, rescue methods with the pool", () => {
    const plan = quickstartPlan(settings);
    expect(plan.train.map((job) => job.name)).toEqual([
      "train grpo seed 1",
      "train grpo seed 2",
      "train dapo seed 1",
      "train dapo seed 2",
      "train harness-s seed 1",
      "train harness-s seed 2",
    ]);
    for (const job of plan.train) {
      expect(job.args[job.args.indexOf("--budget") + 1]).toBe("500");
      expect(job.args.includes("--pool")).toBe(job.name.startsWith("train harness-s"));
    }
    expect(plan.evaluate.every((job) => job.args.includes("base"))).toBe(true);
    for (const job of [plan.evolve, plan.profile, ...plan.train, ...plan.evaluate, ...plan.untrained])
      expect(job.args.slice(1, 5)).toEqual(["--bench", "./my-bench.js", "--max-digit", "5"]);
    expect(plan.rankOne.map((job) => job.args[job.args.indexOf("--rank1") + 1])).toEqual(
      Array(4).fill("/x/pool.json"),
    );
  });

  it("passes stage options to the stages that take them", () => {
    const plan = quickstartPlan({
      ...settings,
      stageFlags: { evolve: ["--rollouts", "2"], profile: ["--rollouts", "2"], train: ["--group-size", "4"] },
    });
    expect(plan.evolve.args.join(" ")).toContain("--rollouts 2");
    expect(plan.profile.args.join(" ")).toContain("--rollouts 2");
    expect(plan.train.every((job) => job.args.join(" ").includes("--group-size 4"))).toBe(true);
    expect(plan.evolve.args.join(" ")).not.toContain("--group-size");
    expect(plan.evolve.args.join(" ")).toContain("--concurrency 2");
    expect(plan.profile.args.join(" ")).toContain("--concurrency 2");
    expect(plan.train.some((job) => job.args.includes("--concurrency"))).toBe(false);
  });

  it("takes --router and passes it to every run that routes: harness-s training and Rank-1", () => {
    expect(parseWithTable(quickstartCommand, ["--router", "./my-router.js"]).values.router).toBe(
      "./my-router.js",
    );
    const plan = quickstartPlan({ ...settings, router: "./my-router.js" });
    const routerOf = (job: { args: string[] }) =>
      job.args.includes("--router") ? job.args[job.args.indexOf("--router") + 1] : undefined;
    for (const job of plan.train)
      expect(routerOf(job), job.name).toBe(job.name.includes("harness-s") ? "./my-router.js" : undefined);
    expect(plan.rankOne.map(routerOf)).toEqual(Array(4).fill("./my-router.js"));
    expect([...plan.evaluate, ...plan.untrained, plan.evolve, plan.profile].some(routerOf)).toBe(false);
    expect(experimentFingerprint({ ...settings, router: "./my-router.js" })["--router"]).toBe(
      "./my-router.js",
    );
    expect(Object.keys(experimentFingerprint(settings))).not.toContain("--router");
  });

  it("passes --rescue-gate and --credit-harness-calls to the rescue methods' training runs only, and records them", () => {
    const parsed = parseWithTable(quickstartCommand, ["--rescue-gate", "yield", "--credit-harness-calls"]);
    expect([parsed.values["rescue-gate"], parsed.values["credit-harness-calls"]]).toEqual(["yield", true]);
    const given = { ...settings, methods: ["grpo", "harness-s", "random-rescue"], seeds: [1] };
    const plan = quickstartPlan({ ...given, rescueGate: "yield", creditHarnessCalls: true });
    const rescueOf = (job: { args: string[] }) => [
      job.args.includes("--credit-harness-calls"),
      job.args[job.args.indexOf("--rescue-gate") + 1],
    ];
    expect(plan.train.map(rescueOf)).toEqual([
      [false, "train"],
      [true, "yield"],
      [true, "yield"],
    ]);
    expect(
      [plan.evolve, plan.profile, ...plan.evaluate, ...plan.rankOne].some((job) =>
        job.args.includes("--rescue-gate"),
      ),
    ).toBe(false);
    expect(experimentFingerprint({ ...given, rescueGate: "yield", creditHarnessCalls: true })).toMatchObject({
      "--rescue-gate": "yield",
      "--credit-harness-calls": "given",
    });
    expect(Object.keys(experimentFingerprint(given))).not.toContain("--rescue-gate");
    expect(quickstartPlan(given).train.some((job) => job.args.includes("--credit-harness-calls"))).toBe(
      false,
    );
  });

  it("evaluates every trained and untrained policy on every held-out split, each into its own file", () => {
    const plan = quickstartPlan(settings);
    expect(plan.evaluate).toHaveLength(3 * 2 * 2);
    const splitOf = (job: { args: string[] }) => job.args[job.args.indexOf("--split") + 1];
    expect(plan.untrained.map((job) => [job.args[job.args.indexOf("--seed") + 1], splitOf(job)])).toEqual([
      ["1", "heldout"],
      ["1", "heldout-repos"],
      ["2", "heldout"],
      ["2", "heldout-repos"],
    ]);
    expect(plan.untrained.every((job) => job.args[job.args.indexOf("--policy") + 1] === "embedded")).toBe(
      true,
    );
    const outputs = [...plan.evaluate, ...plan.untrained, ...plan.rankOne].map((job) => job.output);
    expect(new Set(outputs).size).toBe(outputs.length);
    expect(plan.rankOne[1]?.output).toBe("/x/runs/harness-s/seed-1/eval-rank1-heldout-repos.json");
    expect(quickstartPlan({ ...settings, methods: ["grpo"] }).rankOne).toEqual([]);
  });
});

describe("runCliJobs", () => {
  it("runs hs commands as child processes with bounded concurrency and keeps their logs", async () => {
    const directory = await mkdtemp(join(tmpdir(), "hs-jobs-"));
    const jobs = ["report", "train", "eval"].map((name) => ({
      name,
      args: [name, "--help"],
      log: join(directory, `${name}.log`),
    }));
    const order: string[] = [];
    const results = await runCliJobs(jobs, 2, (result) => {
      order.push(result.job.name);
    });
    expect(results.map((result) => result.stdout.split("\n")[0])).toEqual([
      "Usage: hs report DIR... --out REPORT [--json]",
      expect.stringMatching(/^Usage: hs train/),
      expect.stringMatching(/^Usage: hs eval/),
    ]);
    expect(order.sort()).toEqual(["eval", "report", "train"]);
    expect(await readFile(join(directory, "train.log"), "utf8")).toContain("$ hs train --help");
    const failing = [{ name: "bad", args: ["train", "--method", "nope"], log: join(directory, "bad.log") }];
    await expect(runCliJobs(failing, 1, () => {})).rejects.toThrow(
      /bad failed \(exit code 2\); see .*bad\.log/,
    );
  }, 60_000);

  it("resolves only after every asynchronous onDone has finished, so what it wrote can be read", async () => {
    const directory = await mkdtemp(join(tmpdir(), "hs-jobs-"));
    const jobs = ["report", "eval"].map((name) => ({
      name,
      args: [name, "--help"],
      log: join(directory, `${name}.log`),
    }));
    await runCliJobs(jobs, 2, async (result) => {
      await new Promise((done) => setTimeout(done, 300));
      await writeFile(join(directory, `${result.job.name}.out`), result.stdout);
    });
    expect(await readFile(join(directory, "report.out"), "utf8")).toMatch(/^Usage: hs report/);
    expect(await readFile(join(directory, "eval.out"), "utf8")).toMatch(/^Usage: hs eval/);
    const failing = runCliJobs(jobs.slice(0, 1), 1, async () => {
      await new Promise((done) => setTimeout(done, 50));
      throw new Error("could not keep the result");
    });
    await expect(failing).rejects.toThrow("could not keep the result");
  }, 60_000);
});

describe("withHeartbeat", () => {
  it("fills a silent stage with still-running lines and passes its own lines at most once per interval", async () => {
    const said: string[] = [];
    const result = await withHeartbeat(
      (text) => said.push(text),
      "evolve",
      async (onProgress) => {
        onProgress("generation 1");
        onProgress("generation 1 again");
        await new Promise((done) => setTimeout(done, 900));
        return 7;
      },
      200,
    );
    expect(result).toBe(7);
    expect(said.filter((line) => line.startsWith("evolve: generation"))).toEqual([]);
    const beats = said.filter((line) => line.startsWith("evolve: still running after"));
    expect(beats.length).toBeGreaterThanOrEqual(2);
    expect(beats[0]).toContain("(last: generation 1 again)");
  });
});
