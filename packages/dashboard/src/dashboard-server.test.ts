import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRunWriter } from "./__fixtures__/write-run.js";
import { type Dashboard, startDashboard } from "./dashboard-server.js";

describe("the dashboard's HTTP API", () => {
  let dashboard: Dashboard;
  let experiment: string;

  beforeAll(async () => {
    experiment = await mkdtemp(join(tmpdir(), "hs-dashboard-api-"));
    for (const [method, seed] of [
      ["grpo", 1],
      ["harness-s", 1],
    ] as const) {
      const writer = await createRunWriter(join(experiment, "runs", method, `seed-${seed}`), method, seed);
      await writer.step();
    }
    await writeFile(
      join(experiment, "results.json"),
      JSON.stringify({ heldout: { grpo: [0.3], "harness-s": [0.4] }, seeds: [1] }),
    );
    await writeFile(join(experiment, "pool.json"), "{ not json");
    dashboard = await startDashboard({ directories: [experiment] });
  });
  afterAll(() => dashboard.close());

  const get = async (path: string) => {
    const reply = await fetch(new URL(path, dashboard.url));
    return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
  };

  it("listens on this machine only by default and serves the page and the chart libraries", async () => {
    expect(dashboard.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(await (await fetch(dashboard.url)).text()).toContain("/vendor/vega-lite.js");
    const vega = await fetch(new URL("/vendor/vega.js", dashboard.url));
    expect(vega.headers.get("content-type")).toContain("javascript");
    expect((await vega.text()).length).toBeGreaterThan(100_000);
  });

  it("finds an experiment's runs, its results, and names a file it could not read", async () => {
    const { body } = await get("/api/state");
    const [directory] = body.directories as {
      kind: string;
      runs: { id: string; method: string }[];
      problems: { file: string }[];
      results: unknown;
    }[];
    expect(directory?.kind).toBe("experiment");
    expect(directory?.runs.map((run) => [run.id, run.method])).toEqual([
      [join("runs", "grpo", "seed-1"), "grpo"],
      [join("runs", "harness-s", "seed-1"), "harness-s"],
    ]);
    expect(directory?.results).toMatchObject({ heldout: { grpo: [0.3] } });
    expect(directory?.problems.map((problem) => problem.file)).toEqual([join(experiment, "pool.json")]);
  });

  it("filters trajectories, opens one, and refuses a bad query with the field named", async () => {
    const run = encodeURIComponent(join("runs", "grpo", "seed-1"));
    const page = await get(`/api/trajectories?directory=0&run=${run}&outcome=success&harness=base`);
    expect(page.body.total).toBe(1);
    const [row] = page.body.rows as { id: string }[];
    const one = await get(`/api/trajectory?directory=0&run=${run}&id=${row?.id}`);
    expect(one.body).toMatchObject({ id: row?.id, success: true });
    const bad = await get(`/api/trajectories?directory=0&run=${run}&outcome=maybe`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/outcome/);
    expect((await get(`/api/trajectory?directory=0&run=${run}&id=nope`)).status).toBe(404);
    expect((await get("/api/trajectories?directory=3&run=x")).status).toBe(404);
    expect((await get("/etc/passwd")).status).toBe(404);
  });
});

describe("startDashboard beside other work", () => {
  it("does not keep the process running with keepAlive false", async () => {
    const { execFile } = await import("node:child_process");
    const module = new URL("../dist/dashboard-server.js", import.meta.url).pathname;
    const script = `const { startDashboard } = await import(${JSON.stringify(module)}); const d = await startDashboard({ directories: ["."], keepAlive: false }); console.log(d.url);`;
    const started = Date.now();
    const output = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ["--input-type=module", "-e", script],
        { timeout: 20_000 },
        (error, stdout) => (error === null ? resolve(stdout) : reject(error)),
      ),
    );
    expect(output).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/m);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 30_000);
});
