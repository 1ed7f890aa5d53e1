import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import { main } from "../main.js";

const here = dirname(fileURLToPath(import.meta.url));
/** The built CLI (`pnpm build` first): workers run as real `hs worker` processes. */
export const builtCli = join(here, "../../dist/cli.js");

/** `hs ARGS` run in this process: its exit code and what it wrote on stderr (stdout is dropped). */
export async function runHs(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const code = await main(args, { stdout: () => {}, stderr: (text) => (stderr += text) });
  return { code, stderr };
}

/**
 * A maker of temporary directories, all removed after the test file's tests: call it once at the top
 * of a test file (it registers the `afterAll` that removes them).
 */
export function temporaryDirectories(): (prefix: string) => Promise<string> {
  const directories: string[] = [];
  afterAll(async () => {
    for (const directory of directories) await rm(directory, { recursive: true, force: true });
  });
  return async (prefix) => {
    const directory = await mkdtemp(join(tmpdir(), prefix));
    directories.push(directory);
    return directory;
  };
}

/** The Redis of the queue tests, or undefined (then they skip, except in CI, where they fail). */
export function testRedisUrl(suite: string): string | undefined {
  const url = process.env.HS_REDIS_URL;
  if (url === undefined && (process.env.CI === "true" || process.env.CI === "1"))
    throw new Error(
      "HS_REDIS_URL is not set: in CI the queue tests must run (scripts/test-all.sh starts Redis)",
    );
  if (url === undefined)
    console.warn(`${suite} skipped: HS_REDIS_URL is not set (bash scripts/redis.sh start)`);
  return url;
}

/** A running `hs worker` process and everything it printed so far. */
export interface WorkerProcess {
  /** The process. */
  child: ChildProcess;
  /** Its stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then waits for it to exit (it finishes its episodes first). */
  stop(): Promise<void>;
  /** Episodes it reported done when it stopped. */
  episodesDone(): number;
}

/** Starts `hs worker --redis URL` and resolves once it takes jobs. */
export function startWorkerProcess(
  url: string,
  extra: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Promise<WorkerProcess> {
  const child = spawn(
    process.execPath,
    [builtCli, "worker", "--redis", url, "--concurrency", "2", ...extra],
    { stdio: ["ignore", "pipe", "pipe"], env },
  );
  let output = "";
  const exited = new Promise<void>((gone) => child.once("exit", () => gone()));
  const worker: WorkerProcess = {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
    episodesDone: () => Number(/worker: (\d+) episodes done/.exec(output)?.[1] ?? 0),
  };
  return new Promise((ready, fail) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("taking jobs")) ready(worker);
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.on("exit", (code) => fail(new Error(`hs worker exited with ${code}: ${output}`)));
  });
}

/** Fields that hold wall-clock measurements (episode, step and statement times, dates of writing). */
const clockFields = new Set(["wallMs", "policyMs", "environmentMs", "timings", "elapsedMs", "createdAt"]);

/** A value without its wall-clock fields, at any depth. */
export function withoutClock(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutClock);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !clockFields.has(key))
      .map(([key, inner]) => [key, withoutClock(inner)]),
  );
}

/** A JSONL file's lines without their clock fields. */
export function jsonlWithoutClock(file: string): string[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.stringify(withoutClock(JSON.parse(line))));
}

/** A JSON file without its clock fields. */
export function jsonWithoutClock(file: string): unknown {
  return withoutClock(JSON.parse(readFileSync(file, "utf8")));
}
