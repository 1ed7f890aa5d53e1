import { isDeepStrictEqual } from "node:util";
import type { BenchmarkV1, LoadTasksResult, ToolCall } from "@hs/spec";
import { failureConventionsSchema, InvalidInputError, type Task, taskSchema, toolSpecSchema } from "@hs/spec";
import { parseHarnessConfig } from "../parse-harness-config.js";
import { type ConformanceCheck, createCheckRunner, failedLines } from "./conformance-check.js";
import { splitProblems, taskGoldProblems, textLeaks } from "./plugin-checks.js";
import { probeEpisode } from "./probe-episode.js";

/** What a benchmark author hands the kit besides the benchmark. */
export interface BenchmarkConformanceOptions {
  /** Creates a fresh benchmark (called more than once). */
  createBenchmark: () => BenchmarkV1 | Promise<BenchmarkV1>;
  /** Split to check in full (default: the training split); every other declared split must load. */
  split?: string;
  /** How many tasks of it the episode checks run on (default 3). */
  sampleSize?: number;
  /**
   * The grader's secrets of a task (labels, reference solutions, expected hashes, test names): none may
   * appear in the task or in anything the policy is shown. Strings shorter than 4 characters are looked
   * for only as a whole value of the task's metadata (a numeric label `12` in `metadata.answer`).
   */
  goldOf: (task: Task) => readonly string[];
  /**
   * The same tasks loaded from a copy of the data with every gold field deleted: the tasks, and the
   * first decision of the action grammar, must be identical to those loaded with gold.
   */
  loadWithoutGold?: () => Promise<LoadTasksResult>;
  /** A call that changes an episode's world, to show that another episode of the task does not see it. */
  mutatingCall?: (task: Task) => ToolCall;
  /** A data file with exactly one bad record, and its 1-based line, to check the error names both. */
  badRecord?: { path: string; line: number };
  /** Records of the split known not to load (e.g. a dataset's own malformed record); default 0. */
  expectedProblems?: number;
  /** Run the benchmark's gold replay on the split (default true when it has one). */
  goldReplay?: boolean;
}

/** What the benchmark conformance kit found. */
export interface BenchmarkConformanceReport {
  /** Benchmark id. */
  benchmarkId: string;
  /** Whether every check passed. */
  passed: boolean;
  /** Every check. */
  checks: ConformanceCheck[];
}

function contractProblems(benchmark: BenchmarkV1): string[] {
  const problems: string[] = [];
  if (benchmark.specificationVersion !== "v1")
    problems.push(`specificationVersion is ${benchmark.specificationVersion}`);
  if (!(benchmark.defaultPreset in benchmark.presets))
    problems.push(`defaultPreset ${benchmark.defaultPreset} is not a preset`);
  problems.push(...splitProblems(benchmark));
  if (benchmark.failureConventions !== undefined) {
    const parsed = failureConventionsSchema.safeParse(benchmark.failureConventions);
    if (!parsed.success) problems.push(`failureConventions: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  }
  return problems;
}

function presetProblems(benchmark: BenchmarkV1): string[] {
  const problems: string[] = [];
  for (const [name, preset] of Object.entries(benchmark.presets)) {
    try {
      const parsed = parseHarnessConfig(JSON.parse(JSON.stringify(preset)));
      if (!isDeepStrictEqual(parsed, JSON.parse(JSON.stringify(preset))))
        problems.push(`preset ${name} changes when parsed (unknown or defaulted keys)`);
    } catch (error) {
      problems.push(`preset ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return problems;
}

function taskProblems(
  benchmark: BenchmarkV1,
  tasks: readonly Task[],
  options: BenchmarkConformanceOptions,
): string[] {
  const problems: string[] = [];
  if (tasks.length === 0) problems.push("the split has no task");
  if (new Set(tasks.map((task) => task.id)).size !== tasks.length) problems.push("task ids repeat");
  for (const task of tasks) {
    const parsed = taskSchema.strict().safeParse(task);
    if (!parsed.success) problems.push(`${task.id}: not a Task (${parsed.error.issues[0]?.message ?? ""})`);
    if (task.benchmark !== benchmark.id) problems.push(`${task.id}: benchmark is ${task.benchmark}`);
    problems.push(...taskGoldProblems(task, options.goldOf(task)));
  }
  return problems;
}

/** Every declared split but the one checked in full loads and has tasks. */
async function declaredSplitProblems(benchmark: BenchmarkV1, checked: string): Promise<string[]> {
  const problems: string[] = [];
  for (const split of benchmark.splits.filter((entry) => entry !== checked)) {
    try {
      const { tasks } = await benchmark.loadTasks({ split });
      if (tasks.length === 0) problems.push(`split ${split} has no task`);
    } catch (error) {
      problems.push(
        `split ${split} does not load: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return problems;
}

async function viewProblems(
  benchmark: BenchmarkV1,
  tasks: readonly Task[],
  options: BenchmarkConformanceOptions,
) {
  const problems: string[] = [];
  for (const task of tasks) {
    for (const [name, preset] of Object.entries(benchmark.presets)) {
      const { views, trajectory } = await probeEpisode(benchmark, task, preset);
      if (views.length === 0)
        problems.push(`${task.id} under ${name}: the policy was never asked (${trajectory.endReason})`);
      const leaked = textLeaks(JSON.stringify(views), options.goldOf(task));
      if (leaked.length > 0)
        problems.push(`${task.id} under ${name}: the view shows gold: ${leaked.slice(0, 3).join(" | ")}`);
      if (trajectory.success)
        problems.push(`${task.id} under ${name}: an episode without a parsable action succeeded`);
    }
  }
  return problems;
}

/** What grading decides (details may hold timings and logs, which differ between runs). */
async function verdict(environment: { grade(): Promise<{ reward: number; success: boolean }> }) {
  const { reward, success } = await environment.grade();
  return { reward, success };
}

async function isolationProblems(benchmark: BenchmarkV1, task: Task, options: BenchmarkConformanceOptions) {
  const first = await benchmark.createEnvironment(task, { seed: 1 });
  const second = await benchmark.createEnvironment(task, { seed: 1 });
  const problems: string[] = [];
  try {
    await first.reset();
    await second.reset();
    const before = await verdict(second);
    if (options.mutatingCall !== undefined) await first.step(options.mutatingCall(task));
    if (!isDeepStrictEqual(before, await verdict(second)))
      problems.push("a change in one episode changed another episode's grade");
    if (!isDeepStrictEqual(before, await verdict(second)))
      problems.push("grading the same episode twice differs");
    const fresh = await benchmark.createEnvironment(task, { seed: 1 });
    await fresh.reset();
    if (!isDeepStrictEqual(await verdict(fresh), before))
      problems.push("two fresh episodes grade differently");
    await fresh.close();
    await fresh.close();
  } finally {
    await first.close();
    await second.close();
    await first.close();
  }
  return problems;
}

async function withoutGoldProblems(
  benchmark: BenchmarkV1,
  tasks: readonly Task[],
  load: () => Promise<LoadTasksResult>,
) {
  const stripped = await load();
  const problems: string[] = [];
  const byId = new Map(stripped.tasks.map((task) => [task.id, task]));
  for (const task of tasks) {
    const other = byId.get(task.id);
    if (other === undefined) problems.push(`${task.id} does not load without its gold fields`);
    else if (!isDeepStrictEqual(task, other)) problems.push(`${task.id} differs when loaded without gold`);
  }
  const grammar = benchmark.actionGrammar;
  const task = tasks[0];
  const other = task === undefined ? undefined : byId.get(task.id);
  if (grammar !== undefined && task !== undefined && other !== undefined) {
    const preset = benchmark.presets[benchmark.defaultPreset];
    if (preset !== undefined) {
      const firstDecision = async (entry: Task) => {
        const view = (await probeEpisode(benchmark, entry, preset)).views[0];
        return view === undefined ? null : grammar.next(view, []);
      };
      if (!isDeepStrictEqual(await firstDecision(task), await firstDecision(other)))
        problems.push("the grammar's first decision differs without gold fields");
    }
  }
  return problems;
}

async function badRecordProblems(benchmark: BenchmarkV1, bad: { path: string; line: number }) {
  const { tasks, problems } = await benchmark.loadTasks({ path: bad.path });
  const found: string[] = [];
  const problem = problems[0];
  if (problems.length !== 1) found.push(`expected one problem, got ${problems.length}`);
  if (tasks.length === 0) found.push("the good records did not load");
  if (
    problem !== undefined &&
    !(problem instanceof InvalidInputError || InvalidInputError.isInstance(problem))
  )
    found.push("the problem is not an InvalidInputError");
  const location = (problem as InvalidInputError | undefined)?.location;
  if (location?.line !== bad.line) found.push(`the problem names line ${location?.line}, not ${bad.line}`);
  if (location?.file === undefined) found.push("the problem names no file");
  if (location?.field === undefined) found.push("the problem names no field");
  return found;
}

async function goldReplayProblems(benchmark: BenchmarkV1, split: string) {
  if (benchmark.goldReplay === undefined) return ["the benchmark has no goldReplay"];
  const report = await benchmark.goldReplay({ tasks: { split } });
  const problems: string[] = [];
  if (report.passed !== report.total)
    problems.push(`${report.total - report.passed} of ${report.total} reference solutions failed`);
  if (report.emptyPassed !== 0) problems.push(`the empty solution passed ${report.emptyPassed}`);
  return problems;
}

/**
 * The benchmark conformance kit: the contract's fields, presets that parse as they are, every declared
 * split loading with tasks, tasks of the checked split that hold no gold, views (first and re-prompt, under every preset) that show no gold, identical tasks and
 * grammar decisions without the gold fields, isolated episodes, idempotent close, deterministic grading,
 * per-line errors for a bad record, and a passing gold replay. Framework-agnostic: assert
 * `report.passed`, or call `assertBenchmarkConformance`.
 */
export async function checkBenchmarkConformance(
  options: BenchmarkConformanceOptions,
): Promise<BenchmarkConformanceReport> {
  const benchmark = await options.createBenchmark();
  const split = options.split ?? benchmark.trainSplit ?? benchmark.splits[0] ?? "train";
  const { checks, check } = createCheckRunner();
  let tasks: Task[] = [];
  await check("fields of the contract", async () => contractProblems(benchmark));
  await check("every preset parses unchanged", async () => presetProblems(benchmark));
  await check(`split ${split} loads; tasks are valid and hold no gold`, async () => {
    const loaded = await benchmark.loadTasks({ split });
    tasks = loaded.tasks;
    const expected = options.expectedProblems ?? 0;
    const problems =
      loaded.problems.length === expected
        ? []
        : [
            `${loaded.problems.length} records did not load (expected ${expected}): ${loaded.problems[0]?.message ?? ""}`,
          ];
    return [...problems, ...taskProblems(benchmark, tasks, options)];
  });
  await check("every other declared split loads and has tasks", async () =>
    declaredSplitProblems(benchmark, split),
  );
  const sample = tasks.slice(0, options.sampleSize ?? 3);
  await check("tools are valid tool specs", async () => {
    if (sample[0] === undefined) return [];
    const environment = await benchmark.createEnvironment(sample[0], { seed: 0 });
    await environment.close();
    return environment.tools.flatMap((tool) =>
      toolSpecSchema.safeParse(tool).success ? [] : [`tool ${tool.name} is not a valid tool spec`],
    );
  });
  await check("no gold in any view under any preset", async () => viewProblems(benchmark, sample, options));
  await check(
    "episodes of one task share nothing; grading is deterministic; close is idempotent",
    async () => (sample[0] === undefined ? [] : isolationProblems(benchmark, sample[0], options)),
  );
  if (options.loadWithoutGold !== undefined) {
    const load = options.loadWithoutGold;
    await check("tasks and grammar decisions unchanged without gold fields", async () =>
      withoutGoldProblems(benchmark, sample, load),
    );
  }
  if (options.badRecord !== undefined) {
    const bad = options.badRecord;
    await check("a bad record names file, line and field; the others load", async () =>
      badRecordProblems(benchmark, bad),
    );
  }
  if (options.goldReplay ?? benchmark.goldReplay !== undefined)
    await check(`gold replay of ${split} passes and the empty solution does not`, async () =>
      goldReplayProblems(benchmark, split),
    );
  await benchmark.close?.();
  return { benchmarkId: benchmark.id, passed: checks.every((entry) => entry.passed), checks };
}

/** Runs the kit and throws an `Error` listing every failed check. */
export async function assertBenchmarkConformance(
  options: BenchmarkConformanceOptions,
): Promise<BenchmarkConformanceReport> {
  const report = await checkBenchmarkConformance(options);
  if (!report.passed)
    throw new Error(
      `benchmark "${report.benchmarkId}" fails the conformance kit:\n${failedLines(report.checks)}`,
    );
  return report;
}
