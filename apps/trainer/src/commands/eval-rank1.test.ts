import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDbBench } from "@hs/benchmarks-dbbench";
import { createPool, createSibling } from "@hs/harness";
import type { Pool } from "@hs/spec";
import { describe, expect, it } from "vitest";
import { main } from "../main.js";

const devFile = join(
  dirname(fileURLToPath(import.meta.url)),
  "../../../../packages/benchmarks-dbbench/data/dev.jsonl",
);

describe("hs eval --rank1", () => {
  it("runs each task once under the router's top harness, says which, and writes the episodes", async () => {
    const directory = await mkdtemp(join(tmpdir(), "hs-rank1-"));
    const data = join(directory, "four.jsonl");
    writeFileSync(data, `${readFileSync(devFile, "utf8").split("\n").slice(0, 4).join("\n")}\n`);
    const base = createDbBench().presets["v0.2"]!;
    const hinted = {
      ...base,
      id: "hinted",
      prompt: {
        ...base.prompt,
        hints: ["Preview the distinct values of a condition column before filtering on it."],
      },
    };
    const pool: Pool = createPool({
      benchmark: "dbbench",
      createdAt: "2026-11-29T00:00:00.000Z",
      policyVersion: "seed0-u0",
      base,
      siblings: [
        createSibling(hinted, {
          direction: "guidance",
          lineage: [base.id],
          validation: { failuresTried: 4, rescued: 2, successesTried: 2, regressions: 0 },
        }),
      ],
    });
    const poolFile = join(directory, "pool.json");
    writeFileSync(poolFile, JSON.stringify(pool));
    let stdout = "";
    const code = await main(
      [
        "eval",
        "--bench",
        "dbbench",
        "--data",
        data,
        "--policy",
        "embedded",
        "--rank1",
        poolFile,
        "--trajectories",
        join(directory, "episodes.jsonl"),
        "--json",
      ],
      {
        stdout: (text) => {
          stdout += text;
        },
        stderr: () => {},
      },
    );
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ n: 4, harness: "rank-1", rank1_choices: { hinted: 4 } });
    expect(result.success).toBeGreaterThanOrEqual(0);
    const episodes = readFileSync(join(directory, "episodes.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(episodes.map((episode) => episode.harnessId)).toEqual(["hinted", "hinted", "hinted", "hinted"]);
    expect(episodes.filter((episode) => episode.success)).toHaveLength(result.passes);
  }, 60_000);
});
