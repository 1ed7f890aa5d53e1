import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { conformanceFixtures } from "@hs/router";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../main.js";

async function run(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

const fixtures = conformanceFixtures();
const directory = await mkdtemp(join(tmpdir(), "hs-route-"));
const poolFile = join(directory, "pool.json");
const profilesFile = join(directory, "profiles.json");
const failedFile = join(directory, "failed.jsonl");
await writeFile(poolFile, JSON.stringify(fixtures.pool));
await writeFile(profilesFile, JSON.stringify(fixtures.profiles));
await writeFile(
  failedFile,
  // The fixtures are what a router sees; a trajectory file holds the full records (category, grading).
  `${fixtures.failedGroup
    .map((trajectory) => JSON.stringify({ ...trajectory, category: "select", gradeDetails: {} }))
    .join("\n")}\n`,
);

// Test equipment: a chat-completions server whose model "garbage" answers prose and "good" a ranking.
const server = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    const { model } = JSON.parse(body) as { model: string };
    const content =
      model === "good"
        ? JSON.stringify({
            ranking: [{ harnessId: "sibling-verification", reason: "it answered too early" }],
          })
        : "no idea";
    response
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ choices: [{ message: { role: "assistant", content }, finish_reason: "stop" }] }));
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("hs route", () => {
  it("explains each judge's ranking, the aggregate and the chosen top-k", async () => {
    const { code, stdout } = await run([
      "route",
      "--pool",
      poolFile,
      "--profiles",
      profilesFile,
      "--trajectories",
      failedFile,
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain(
      "== conformance/1 (3 failed; budget-exhausted 67%, premature-answer 33%) router vote-borda",
    );
    expect(stdout).toContain("judge rescue-matrix:");
    expect(stdout).toContain("judge direction:");
    expect(stdout).toContain("aggregate:");
    expect(stdout).toMatch(/selected: sibling-budget, sibling-\w+/);
  });

  it("adds LLM judges over HTTP and shows a dropped one with its reason", async () => {
    const { code, stdout } = await run([
      "route",
      "--pool",
      poolFile,
      "--profiles",
      profilesFile,
      "--trajectories",
      failedFile,
      "--judge-model",
      "good",
      "--judge-model",
      "garbage",
      "--judge-base-url",
      baseURL,
      "--k",
      "1",
      "--json",
    ]);
    expect(code).toBe(0);
    const decision = JSON.parse(stdout.trim()) as {
      selected: string[];
      votes: { judgeId: string }[];
      dropped: { judgeId: string; reason: string }[];
    };
    expect(decision.selected).toHaveLength(1);
    expect(decision.votes.map((vote) => vote.judgeId)).toContain("llm:openai-compatible:good");
    expect(decision.dropped).toEqual([
      { judgeId: "llm:openai-compatible:garbage", reason: expect.stringContaining("no JSON object") },
    ]);
  });

  it("routes with the profile router and without profiles", async () => {
    const { code, stdout } = await run([
      "route",
      "--pool",
      poolFile,
      "--trajectories",
      failedFile,
      "--router",
      "profile",
      "--k",
      "3",
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain("no profile for this harness");
    expect(stdout.match(/selected: (.*)/)?.[1]?.split(", ")).toHaveLength(3);
  });

  it("names a broken pool file and a bad option", async () => {
    await writeFile(join(directory, "bad.json"), "{");
    const broken = await run(["route", "--pool", join(directory, "bad.json"), "--trajectories", failedFile]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain("bad.json:1: not valid JSON");
    const usage = await run([
      "route",
      "--pool",
      poolFile,
      "--trajectories",
      failedFile,
      "--aggregation",
      "dictator",
    ]);
    expect(usage.code).toBe(2);
  });
});

describe("hs evolve / hs profile usage", () => {
  it("require their options and reject unknown directions", async () => {
    expect((await run(["evolve", "--bench", "dbbench"])).stderr).toContain("--out pool.json is required");
    expect(
      (await run(["evolve", "--bench", "dbbench", "--out", "x.json", "--directions", "luck"])).stderr,
    ).toContain('"luck" is not one of');
    expect((await run(["profile", "--pool", poolFile, "--out", "x.json"])).stderr).toContain(
      "--policy SPEC is required",
    );
  });

  it("refuses a router plugin that selects an id the pool lacks, naming the router and the id", async () => {
    const router = join(directory, "stray-router.js");
    await writeFile(
      router,
      `export const routerPlugin = {
  specificationVersion: "v1",
  id: "stray",
  description: "selects a harness no pool has",
  createRouter: () => ({
    specificationVersion: "v1",
    id: "stray",
    route: async () => ({ ranking: [], selected: ["no-such-sibling"] }),
  }),
};
`,
    );
    const { code, stdout, stderr } = await run([
      ...["route", "--pool", poolFile, "--trajectories", failedFile, "--router", router, "--json"],
    ]);
    expect(code).not.toBe(0);
    expect(stdout).toBe("");
    expect(stderr).toContain('router stray: selected "no-such-sibling", which is not a sibling of the pool');
  });
});
