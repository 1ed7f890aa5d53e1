import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readExperiment } from "./experiment.js";
import { comparisons, writeReport } from "./write-report.js";

async function experimentFixture(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "hs-report-"));
  await writeFile(
    join(directory, "results.json"),
    JSON.stringify({
      wall_seconds: 123,
      seeds: [1, 2, 3],
      heldout: { grpo: [0.2, 0.25, 0.22], "harness-s": [0.4, 0.42, 0.38], dapo: [0.3, 0.1, 0.5] },
      rank1: { base: [0.4, 0.42, 0.38], rank1: [0.45, 0.44, 0.4] },
      rollouts: { grpo: [512, 512, 512], "harness-s": [512, 512, 504] },
    }),
  );
  for (const method of ["grpo", "harness-s"]) {
    for (const seed of [1, 2]) {
      const run = join(directory, "runs", method, `seed-${seed}`);
      await mkdir(run, { recursive: true });
      const rows = Array.from({ length: 6 }, (_, step) => ({
        step,
        signalShare: 0.2 + step * 0.05,
        rolloutsTotal: (step + 1) * 64,
        rolloutsBase: 64,
        rolloutsRescue: method === "grpo" ? 0 : 16,
        success: 0.1 * step,
        reward: 0.1 * step,
        rescue: method === "grpo" ? {} : { routerQueries: 4, routerHits: step % 4 },
      }));
      const lines = rows.map((row) => JSON.stringify(row));
      if (method === "grpo" && seed === 2) lines.splice(2, 0, '{"step": 2, "signalSh');
      await writeFile(join(run, "metrics.jsonl"), `${lines.join("\n")}\n`);
      if (method === "harness-s" && seed === 1) {
        const profile = (harnessId: string, successRate: number) => ({
          harnessId,
          policyVersion: "v",
          episodes: 8,
          successRate,
          perCategory: {},
          rescueByMode: {},
          behaviour: {},
        });
        const history = [4, 8].map((step) => ({
          step,
          profiles: { base: profile("base", step / 20), "context-1": profile("context-1", 0.5 - step / 40) },
        }));
        await writeFile(
          join(run, "profiles.json"),
          JSON.stringify({ schemaVersion: 1, profiles: history[1]!.profiles, history }),
        );
      }
    }
  }
  await writeFile(
    join(directory, "pool.evolution.json"),
    JSON.stringify({
      properties: {
        rescueMatrix: {
          "context-1": {
            "context-lost": { attempts: 4, rescued: 3 },
            "wrong-target": { attempts: 5, rescued: 0 },
          },
        },
        complementarity: {
          pairs: [],
          unionTasks: 7,
          bestSingle: { harnessId: "guidance-1", tasks: 5 },
          failedTasks: 20,
        },
      },
    }),
  );
  return directory;
}

describe("writeReport", () => {
  it("writes a self-contained HTML report with charts as SVG and PNG files", async () => {
    const experiment = await experimentFixture();
    const out = join(experiment, "report");
    const { html, charts } = await writeReport({ experiments: [experiment], out });
    expect(charts.map((chart) => chart.name)).toEqual([
      "learning-curves",
      "signal-share",
      "router-hit-rate",
      "heldout-success",
      "rescue-matrix",
      "complementarity",
      "profile-drift",
    ]);
    const png = await readFile(join(out, "charts", "learning-curves.png"));
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(await readFile(join(out, "index.html"), "utf8")).toBe(html);
    expect(html).toContain("<svg");
    expect(html).toContain("0.200, 0.250, 0.220");
    expect(html).toContain("0.400");
    expect(html).toContain("metrics.jsonl:3: not valid JSON");
    expect(html).not.toMatch(/src="http/);
  }, 60_000);

  it("says when Harness-S won, lost or tied", async () => {
    const experiment = await readExperiment(await experimentFixture());
    const verdicts = comparisons(experiment);
    expect(verdicts.map((entry) => [entry.baseline, entry.verdict])).toEqual([
      ["grpo", "won"],
      ["dapo", "tied"],
    ]);
    expect(verdicts[0]?.difference).toBeCloseTo(0.4 - 0.223333, 5);
  });

  it("shows each kept sibling's behaviours for the untrained, GRPO and Harness-S policies", async () => {
    const directory = await mkdtemp(join(tmpdir(), "hs-report-behaviours-"));
    const tally = (shown: number, applicable: number) => ({ shown, applicable });
    const row = (policy: string, seed: number, readBack: number, valuesFirst: [number, number]) => ({
      policy,
      seed,
      "read-back": tally(readBack, 10),
      "values-first": tally(...valuesFirst),
    });
    await writeFile(
      join(directory, "behaviour-frequency.json"),
      JSON.stringify({
        benchmark: "dbbench",
        split: "test",
        harness: "base",
        siblings: [
          { id: "sibling-verification", direction: "verification", behaviours: ["read-back"] },
          { id: "sibling-context", direction: "context", behaviours: ["values-first"] },
          { id: "sibling-tools", direction: "tools", behaviours: [] },
        ],
        rows: [
          row("untrained", 2, 1, [0, 0]),
          row("untrained", 1, 0, [0, 0]),
          row("grpo", 1, 3, [1, 4]),
          row("grpo", 2, 2, [0, 0]),
          row("harness-s", 1, 9, [2, 2]),
          row("harness-s", 2, 8, [3, 4]),
        ],
        totals: {},
      }),
    );
    const { html } = await writeReport({ experiments: [directory], out: join(directory, "report") });
    expect(html).toContain("<h3>sibling-verification (verification)</h3>");
    expect(html).not.toContain("sibling-tools");
    expect(html).toContain(
      "<td>read-back</td><td>1/20 (5.0%); seed 1: 0/10 (0.0%), seed 2: 1/10 (10.0%)</td><td>5/20 (25.0%); seed 1: 3/10 (30.0%), seed 2: 2/10 (20.0%)</td><td>17/20 (85.0%); seed 1: 9/10 (90.0%), seed 2: 8/10 (80.0%)</td>",
    );
    expect(html).toContain(
      "<td>values-first</td><td>no occasion; seed 1: no occasion, seed 2: no occasion</td><td>1/4 (25.0%); seed 1: 1/4 (25.0%), seed 2: no occasion</td>",
    );
  }, 60_000);

  it("names the file and field of a malformed behaviour-frequency.json and shows no behaviour table", async () => {
    const directory = await mkdtemp(join(tmpdir(), "hs-report-behaviours-"));
    const file = join(directory, "behaviour-frequency.json");
    await writeFile(
      file,
      JSON.stringify({
        benchmark: "dbbench",
        split: "test",
        harness: "base",
        siblings: [{ id: "sibling-verification", behaviours: ["read-back"] }],
        rows: [{ policy: "grpo", seed: 1, "read-back": { shown: "3", applicable: 10 } }],
      }),
    );
    const experiment = await readExperiment(directory);
    expect(experiment.behaviours).toBeNull();
    expect(experiment.problems).toEqual([
      expect.stringMatching(/behaviour-frequency\.json: field "rows\.0\.read-back\.shown": .*number/),
    ]);
    const { html } = await writeReport({ experiments: [directory], out: join(directory, "report") });
    expect(html).not.toContain("Behaviours of the kept siblings");
  }, 60_000);
});
