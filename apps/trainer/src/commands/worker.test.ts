import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  runHs as hs,
  jsonlWithoutClock,
  startWorkerProcess,
  temporaryDirectories,
  testRedisUrl,
} from "../__fixtures__/queue-worker.js";

const redisUrl = testRedisUrl("hs worker tests");
const here = dirname(fileURLToPath(import.meta.url));
const devFile = join(here, "../../../../packages/benchmarks-dbbench/data/dev.jsonl");
const scratch = temporaryDirectories();

const lines = (directory: string, file: string) => jsonlWithoutClock(join(directory, file));

describe.skipIf(redisUrl === undefined)("hs worker and hs train --redis", () => {
  it("trains through a worker process with the same trajectories, metrics and weights as in process", async () => {
    const url = redisUrl as string;
    const directory = await scratch("hs-worker-");
    const data = join(directory, "four.jsonl");
    writeFileSync(data, `${readFileSync(devFile, "utf8").split("\n").slice(40, 44).join("\n")}\n`);
    const train = (out: string, ...extra: string[]) =>
      hs([
        ...["train", "--bench", "dbbench", "--method", "grpo", "--data", data, "--seed", "2"],
        ...["--budget", "16", "--group-size", "4", "--prompts-per-step", "2", "--out", join(directory, out)],
        ...extra,
      ]);
    const worker = await startWorkerProcess(url);
    try {
      const queued = await train("queued", "--redis", url);
      expect(queued.code, queued.stderr).toBe(0);
      expect(queued.stderr).toContain("episodes go to the workers of");
    } finally {
      await worker.stop();
    }
    // every rollout ran on a worker (this one, or another started on the same Redis)
    expect(worker.episodesDone()).toBeGreaterThan(0);
    expect((await train("local")).code).toBe(0);
    for (const file of ["trajectories.jsonl", "metrics.jsonl"])
      expect(lines(join(directory, "queued"), file)).toEqual(lines(join(directory, "local"), file));
    const weights = (out: string) => readFileSync(join(directory, out, "final", "policy.json"));
    expect(weights("queued").equals(weights("local"))).toBe(true);
  }, 120_000);

  it("refuses --episode-time-limit without --redis", async () => {
    const directory = await scratch("hs-worker-usage-");
    const limit = await hs([
      "train",
      "--bench",
      "dbbench",
      "--method",
      "grpo",
      "--budget",
      "16",
      "--out",
      join(directory, "limit"),
      "--episode-time-limit",
      "100",
    ]);
    expect(limit.code).toBe(2);
    expect(limit.stderr).toMatch(/--episode-time-limit needs --redis/);
  }, 60_000);
});
