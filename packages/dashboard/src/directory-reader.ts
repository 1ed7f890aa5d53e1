import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { basename, join, relative } from "node:path";
import { createJsonlTail, type JsonlProblem, type JsonlRow, readJsonAt } from "./jsonl-tail.js";
import {
  matchesFilter,
  summarizeTrajectory,
  type TrajectoryFilter,
  type TrajectorySummary,
} from "./trajectory-summary.js";

/** One training run as the page shows it. */
export interface RunView {
  /** Id of the run within its directory (its path below it, or `.`). */
  id: string;
  /** Method, from `config.json` or the directory name. */
  method: string;
  /** Seed, from `config.json` or the directory name. */
  seed: number | null;
  /** `metrics.jsonl`, one row per step, as written. */
  metrics: unknown[];
  /** Trajectories listed so far. */
  trajectories: number;
  /** Whether the trajectory file has more than was listed so far (a large file is listed a part per read). */
  indexing: boolean;
  /** Harness ids and failure modes seen in its trajectories (for the browser's filters). */
  harnesses: string[];
  /** Failure modes seen. */
  modes: string[];
}

/** One directory given to `hs serve`: a run, or an experiment of `hs quickstart`. */
export interface DirectoryView {
  /** The path as given. */
  path: string;
  /** `run` (it holds metrics.jsonl or config.json) or `experiment`. */
  kind: "run" | "experiment";
  /** Its runs. */
  runs: RunView[];
  /** `results.json` of an experiment, when there. */
  results: unknown;
  /** `pool.json`, when there. */
  pool: unknown;
  /** `profiles.json`, when there. */
  profiles: unknown;
  /** `pool.evolution.json` (rescue matrix against the re-roll control), when there. */
  evolution: unknown;
  /** Everything that could not be read, with the file and line. */
  problems: JsonlProblem[];
}

const runMarkers = ["metrics.jsonl", "config.json"];
const isRun = (directory: string) => runMarkers.some((name) => existsSync(join(directory, name)));

async function findRuns(directory: string, depth = 3): Promise<string[]> {
  if (isRun(directory)) return [directory];
  if (depth === 0) return [];
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
      .filter((entry) => !["checkpoints", "final", "logs", "node_modules"].includes(entry.name))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((entry) => findRuns(join(directory, entry.name), depth - 1)),
  );
  return nested.flat();
}

async function readJsonFile(file: string, problems: JsonlProblem[]): Promise<unknown> {
  const text = await readFile(file, "utf8").catch(() => null);
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch (error) {
    problems.push({ file, message: `not valid JSON (${(error as Error).message})` });
    return null;
  }
}

type Summary = TrajectorySummary | { problem: string };

/** Bytes of a trajectory file listed per view, so a large file never holds up the page's first state. */
const trajectoryBytesPerView = 16 << 20;

/** Counts a run's readable trajectories and the harnesses and failure modes they name; bad rows become problems. */
function tallyTrajectories(run: string, rows: readonly JsonlRow<Summary>[], problems: JsonlProblem[]) {
  const harnesses = new Set<string>();
  const modes = new Set<string>();
  let count = 0;
  for (const row of rows) {
    if ("problem" in row.value) {
      problems.push({ file: join(run, "trajectories.jsonl"), line: row.line, message: row.value.problem });
      continue;
    }
    count += 1;
    harnesses.add(row.value.harnessId);
    for (const mode of row.value.failureModes) modes.add(mode);
  }
  return { count, harnesses: [...harnesses].sort(), modes: [...modes].sort() };
}

/** A run's method and seed: from its config.json, else from its directory names. */
async function readRunConfig(run: string, problems: JsonlProblem[]) {
  const config = (await readJsonFile(join(run, "config.json"), problems)) as {
    method?: string;
    seed?: number;
  } | null;
  const seedMatch = /seed-(\d+)/.exec(basename(run));
  return {
    method: config?.method ?? basename(join(run, "..")),
    seed: config?.seed ?? (seedMatch === null ? null : Number(seedMatch[1])),
  };
}

/**
 * Reads run and experiment directories while they are written: every call to `view()` re-scans for
 * runs and reads only what was appended to their JSONL files since the last call.
 */
export function createDirectoryReader(path: string) {
  const metricsTails = new Map<string, ReturnType<typeof createJsonlTail>>();
  const trajectoryTails = new Map<string, ReturnType<typeof createJsonlTail<Summary>>>();
  let runDirectories: string[] = [];

  const trajectoriesOf = (run: string) => {
    let tail = trajectoryTails.get(run);
    if (tail === undefined) {
      tail = createJsonlTail(join(run, "trajectories.jsonl"), summarizeTrajectory);
      trajectoryTails.set(run, tail);
    }
    return tail;
  };

  const readRun = async (run: string, problems: JsonlProblem[]): Promise<RunView> => {
    let metrics = metricsTails.get(run);
    if (metrics === undefined) {
      metrics = createJsonlTail(join(run, "metrics.jsonl"));
      metricsTails.set(run, metrics);
    }
    problems.push(...(await metrics.read()));
    const trajectories = trajectoriesOf(run);
    const trajectoryProblems = await trajectories.read(trajectoryBytesPerView);
    problems.push(...trajectoryProblems.filter((problem) => problem.message !== "not there (yet)"));
    const tally = tallyTrajectories(run, trajectories.rows, problems);
    const { method, seed } = await readRunConfig(run, problems);
    return {
      id: relative(path, run) || ".",
      method,
      seed,
      metrics: metrics.rows.map((row) => row.value),
      trajectories: tally.count,
      indexing: trajectories.behind,
      harnesses: tally.harnesses,
      modes: tally.modes,
    };
  };

  return {
    /** The directory as of now. */
    async view(): Promise<DirectoryView> {
      const problems: JsonlProblem[] = [];
      if (!existsSync(path)) problems.push({ file: path, message: "no such directory" });
      runDirectories = await findRuns(path);
      const runs: RunView[] = [];
      for (const run of runDirectories) runs.push(await readRun(run, problems));
      const read = (name: string) => readJsonFile(join(path, name), problems);
      return {
        path,
        kind: isRun(path) ? "run" : "experiment",
        runs,
        results: await read("results.json"),
        pool: await read("pool.json"),
        profiles: await read("profiles.json"),
        evolution: await read("pool.evolution.json"),
        problems,
      };
    },
    /** Summaries of a run's trajectories that pass the filters, a page of them, and how many pass. */
    trajectories(runId: string, filter: TrajectoryFilter) {
      const run = runDirectories.find((directory) => (relative(path, directory) || ".") === runId);
      if (run === undefined) return null;
      const matching = trajectoriesOf(run)
        .rows.filter(
          (row) => !("problem" in row.value) && matchesFilter(row.value as TrajectorySummary, filter),
        )
        .map((row) => ({ ...(row.value as TrajectorySummary), line: row.line }));
      return { total: matching.length, rows: matching.slice(filter.offset, filter.offset + filter.limit) };
    },
    /** One whole trajectory of a run, by id, read from its place in the file. */
    async trajectory(runId: string, id: string): Promise<unknown> {
      const run = runDirectories.find((directory) => (relative(path, directory) || ".") === runId);
      if (run === undefined) return null;
      const row = trajectoriesOf(run).rows.find(
        (candidate) => !("problem" in candidate.value) && candidate.value.id === id,
      );
      return row === undefined ? null : readJsonAt(join(run, "trajectories.jsonl"), row.offset, row.length);
    },
  };
}
