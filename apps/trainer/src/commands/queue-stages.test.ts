import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  runHs as hs,
  jsonlWithoutClock,
  jsonWithoutClock,
  startWorkerProcess,
  temporaryDirectories,
  testRedisUrl,
} from "../__fixtures__/queue-worker.js";

const redisUrl = testRedisUrl("hs quickstart and hs evolve --redis tests");
const tinyBenchmark = join(
  import.meta.dirname,
  "..",
  "__fixtures__",
  "plugins",
  "tiny-benchmark",
  "index.js",
);
const scratch = temporaryDirectories();

/** results.json with its own directory written as OUT, without the wall time and the --redis setting. */
function comparableResults(out: string): unknown {
  const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8").replaceAll(out, "OUT")) as {
    wall_seconds?: number;
    settings: { redis?: string };
  };
  delete results.wall_seconds;
  delete results.settings.redis;
  return results;
}

describe.skipIf(redisUrl === undefined)("stages through hs worker processes", () => {
  it("runs a quickstart on the queue with the results of the same quickstart in process", async () => {
    const url = redisUrl as string;
    const directory = await scratch("hs-quickstart-queue-");
    // the smallest main job that still evolves a sibling (rescues in training) and runs every stage
    const quickstart = (out: string, ...extra: string[]) => [
      ...["quickstart", "--bench", tinyBenchmark, "--methods", "harness-s", "--seeds", "1"],
      ...["--budget", "8", "--group-size", "4", "--prompts-per-step", "2", "--rollouts", "2"],
      ...["--generations", "1", "--candidates", "1", "--workers", "2", "--out", join(directory, out)],
      ...extra,
    ];
    const worker = await startWorkerProcess(url);
    let local: Awaited<ReturnType<typeof hs>>;
    let queued: Awaited<ReturnType<typeof hs>>;
    try {
      // side by side: the in-process run does not touch the queue
      [local, queued] = await Promise.all([
        hs(quickstart("local")),
        hs(quickstart("queued", "--redis", url)),
      ]);
    } finally {
      await worker.stop();
    }
    expect(local.code, local.stderr).toBe(0);
    expect(queued.code, queued.stderr).toBe(0);
    expect(worker.episodesDone()).toBeGreaterThan(0);
    const [inProcess, onQueue] = [join(directory, "local"), join(directory, "queued")];
    for (const log of ["evolve.log", "profile.log", "train-harness-s-1.log"])
      expect(readFileSync(join(onQueue, "logs", log), "utf8"), log).toContain(
        "episodes go to the workers of",
      );
    for (const file of ["pool.json", "pool.evolution.json", "profiles.json"])
      expect(jsonWithoutClock(join(onQueue, file)), file).toEqual(jsonWithoutClock(join(inProcess, file)));
    expect((jsonWithoutClock(join(onQueue, "pool.json")) as { siblings: unknown[] }).siblings).not.toEqual(
      [],
    );
    const run = join("runs", "harness-s", "seed-1");
    for (const file of ["pool.base.jsonl", join(run, "trajectories.jsonl"), join(run, "metrics.jsonl")])
      expect(jsonlWithoutClock(join(onQueue, file)), file).toEqual(jsonlWithoutClock(join(inProcess, file)));
    const weights = (out: string) => readFileSync(join(out, run, "final", "policy.json"));
    expect(weights(onQueue).equals(weights(inProcess))).toBe(true);
    expect(comparableResults(onQueue)).toEqual(comparableResults(inProcess));
  }, 300_000);

  it("evolves a DBBench pool on the queue identical to the pool evolved in process", async () => {
    const url = redisUrl as string;
    const directory = await scratch("hs-evolve-queue-");
    const evolve = (out: string, ...extra: string[]) => [
      ...["evolve", "--bench", "dbbench", "--tasks", "12", "--rollouts", "2", "--generations", "1"],
      ...["--candidates", "1", "--max-failures", "8", "--success-sample", "2", "--concurrency", "4"],
      ...["--out", join(directory, out), ...extra],
    ];
    const worker = await startWorkerProcess(url);
    let local: Awaited<ReturnType<typeof hs>>;
    let queued: Awaited<ReturnType<typeof hs>>;
    try {
      [local, queued] = await Promise.all([
        hs(evolve("local.json")),
        hs(evolve("queued.json", "--redis", url)),
      ]);
    } finally {
      await worker.stop();
    }
    expect(local.code, local.stderr).toBe(0);
    expect(queued.code, queued.stderr).toBe(0);
    expect(queued.stderr).toContain("queue: evolve episodes go to the workers of");
    expect(worker.episodesDone()).toBeGreaterThan(0);
    const file = (name: string) => join(directory, name);
    expect(jsonWithoutClock(file("queued.json"))).toEqual(jsonWithoutClock(file("local.json")));
    expect(jsonlWithoutClock(file("queued.base.jsonl"))).toEqual(jsonlWithoutClock(file("local.base.jsonl")));
    const report = jsonWithoutClock(file("queued.evolution.json")) as {
      directions: { candidates: { validation: { failuresTried: number } }[] }[];
    };
    expect(report).toEqual(jsonWithoutClock(file("local.evolution.json")));
    // the candidates' validation episodes ran on the queue too, not only the base run
    const validated = report.directions.flatMap((direction) => direction.candidates);
    expect(validated.some((candidate) => candidate.validation.failuresTried > 0)).toBe(true);
  }, 120_000);
});
