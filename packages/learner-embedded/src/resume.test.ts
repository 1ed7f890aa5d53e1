import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const child = fileURLToPath(new URL("./__fixtures__/train-lookup-child.mjs", import.meta.url));
const directories: string[] = [];
afterAll(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

const metricLines = (directory: string) => {
  const file = join(directory, "metrics.jsonl");
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line !== "").length
    : 0;
};

function start(directory: string): ChildProcess {
  return spawn(process.execPath, [child, directory, "5", "72"], { stdio: ["ignore", "pipe", "pipe"] });
}

function finished(process: ChildProcess): Promise<number | null> {
  return new Promise((done) => process.on("exit", (code, signal) => done(signal === null ? code : null)));
}

/** Runs the child until `lines` metrics lines exist (or it ends), then kills it with SIGKILL. */
async function killAfter(directory: string, lines: number): Promise<void> {
  const run = start(directory);
  const exited = finished(run);
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  while (!ended && metricLines(directory) < lines) await new Promise((done) => setTimeout(done, 5));
  run.kill("SIGKILL");
  await exited;
}

const comparable = (text: string) =>
  text
    .trim()
    .split("\n")
    .map((line) => {
      const { wallMs: _, ...rest } = JSON.parse(line);
      return rest;
    });

describe("resume after SIGKILL", () => {
  it("continues from the last checkpoint: same metrics, no trajectory lost or counted twice", async () => {
    const reference = await mkdtemp(join(tmpdir(), "hs-resume-ref-"));
    const resumed = await mkdtemp(join(tmpdir(), "hs-resume-"));
    directories.push(reference, resumed);
    expect(await finished(start(reference))).toBe(0);

    for (const lines of [1, 3, 4, 7]) await killAfter(resumed, lines);
    expect(metricLines(resumed)).toBeLessThan(metricLines(reference));
    expect(await finished(start(resumed))).toBe(0);

    const [expectedMetrics, actualMetrics] = await Promise.all(
      [reference, resumed].map((directory) => readFile(join(directory, "metrics.jsonl"), "utf8")),
    );
    expect(comparable(actualMetrics!)).toEqual(comparable(expectedMetrics!));
    const ids = async (directory: string) =>
      (await readFile(join(directory, "trajectories.jsonl"), "utf8"))
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).id as string);
    const expectedIds = await ids(reference);
    expect(expectedIds).toHaveLength(72);
    expect(await ids(resumed)).toEqual(expectedIds);
    const weights = async (directory: string) =>
      JSON.parse(await readFile(join(directory, "final", "policy.json"), "utf8"));
    expect(await weights(resumed)).toEqual(await weights(reference));
  }, 120_000);
});
