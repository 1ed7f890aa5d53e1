import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

// From src/ (tests) and from dist/ alike, the built CLI.
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

/** One `hs` invocation run as a child process. */
export interface CliJob {
  /** Short name for progress lines. */
  name: string;
  /** `hs` arguments. */
  args: string[];
  /** File that receives the child's stderr (its progress). */
  log: string;
}

/** A finished job. */
export interface CliJobResult {
  /** The job. */
  job: CliJob;
  /** What it printed on stdout. */
  stdout: string;
  /** Wall time in seconds. */
  seconds: number;
}

/** Options of one job run. */
export interface CliJobOptions {
  /** Cancels the job (the child is killed). */
  signal?: AbortSignal;
  /** Receives each line the child writes on stderr (its progress), as it comes. */
  onProgress?: (line: string) => void;
}

function forwardLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let pending = "";
  stream.on("data", (chunk: Buffer) => {
    const lines = (pending + chunk.toString("utf8")).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (line.trim() !== "") onLine(line.trim());
  });
}

/** Runs one `hs` command in a child process; rejects with the log's path when it fails. */
export async function runCliJob(job: CliJob, options: CliJobOptions = {}): Promise<CliJobResult> {
  const { signal, onProgress } = options;
  await mkdir(dirname(job.log), { recursive: true });
  const started = Date.now();
  const log = createWriteStream(job.log, { flags: "a" });
  log.write(`$ hs ${job.args.join(" ")}\n`);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [cli, ...job.args], {
      stdio: ["ignore", "pipe", "pipe"],
      ...(signal === undefined ? {} : { signal }),
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.pipe(log, { end: false });
    if (onProgress !== undefined) forwardLines(child.stderr, onProgress);
    child.on("error", (error) => fail(error));
    child.on("close", (code, killedBy) => {
      log.end();
      const seconds = (Date.now() - started) / 1000;
      if (code === 0) done({ job, stdout, seconds });
      else fail(new Error(`${job.name} failed (${killedBy ?? `exit code ${code}`}); see ${job.log}`));
    });
  });
}

/**
 * Runs jobs with at most `workers` at once, reporting each as it ends; rejects on the first failure.
 * An `onDone` that returns a promise is awaited before the job counts as done: when this resolves,
 * every `onDone` has finished (what it wrote can be read), and an `onDone` that rejects fails the run.
 */
export async function runCliJobs(
  jobs: readonly CliJob[],
  workers: number,
  onDone: (result: CliJobResult, finished: number) => void | Promise<void>,
  options: { signal?: AbortSignal; onProgress?: (job: CliJob, line: string) => void } = {},
): Promise<CliJobResult[]> {
  const { signal, onProgress } = options;
  const results: CliJobResult[] = new Array(jobs.length);
  let next = 0;
  let finished = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      const job = jobs[index] as CliJob;
      const result = await runCliJob(job, {
        ...(signal === undefined ? {} : { signal }),
        ...(onProgress === undefined ? {} : { onProgress: (line: string) => onProgress(job, line) }),
      });
      results[index] = result;
      finished += 1;
      await onDone(result, finished);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, jobs.length)) }, worker));
  return results;
}
