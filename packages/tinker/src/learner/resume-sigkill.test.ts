import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tinyBaseModel } from "../__fixtures__/tiny-stack.js";
import { TinkerTestServer } from "../server/test-server.js";

const child = fileURLToPath(new URL("../__fixtures__/train-capitals-child.mjs", import.meta.url));
const server = new TinkerTestServer({ baseModels: { [tinyBaseModel]: { vocabSize: 19, seed: 11 } } });
const directories: string[] = [];
beforeAll(async () => {
  await server.start();
});
afterAll(async () => {
  await server.close();
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

const budget = 8 * 8;
const metricLines = (directory: string) => {
  const file = join(directory, "metrics.jsonl");
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line !== "").length
    : 0;
};
const start = (directory: string): ChildProcess =>
  spawn(process.execPath, [child, server.url, directory, String(budget)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
const finished = (run: ChildProcess): Promise<number | null> =>
  new Promise((done) => run.on("exit", (code, signal) => done(signal === null ? code : null)));

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

describe("a Tinker run killed with SIGKILL", () => {
  it("resumes from the recorded Tinker paths with the same metrics and no trajectory lost or counted twice", async () => {
    const reference = await mkdtemp(join(tmpdir(), "hs-tinker-ref-"));
    const resumed = await mkdtemp(join(tmpdir(), "hs-tinker-kill-"));
    directories.push(reference, resumed);
    expect(await finished(start(reference))).toBe(0);
    for (const lines of [2, 5]) await killAfter(resumed, lines);
    expect(metricLines(resumed)).toBeLessThan(metricLines(reference));
    expect(await finished(start(resumed))).toBe(0);
    const [expected, actual] = await Promise.all(
      [reference, resumed].map((directory) => readFile(join(directory, "metrics.jsonl"), "utf8")),
    );
    expect(comparable(actual ?? "")).toEqual(comparable(expected ?? ""));
    const ids = async (directory: string) =>
      (await readFile(join(directory, "trajectories.jsonl"), "utf8"))
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).id as string);
    expect(await ids(reference)).toHaveLength(budget);
    expect(await ids(resumed)).toEqual(await ids(reference));
    const final = JSON.parse(await readFile(join(resumed, "final", "tinker-checkpoint.json"), "utf8"));
    expect(final.updates).toBe(8);
    expect(final.trainingPath).toMatch(/^tinker:\/\/model_\d+\/weights\/resume-state-000008$/);
  }, 110_000);
});
