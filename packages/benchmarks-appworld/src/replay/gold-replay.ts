import type { BenchmarkV1, GoldReplayFailure, GoldReplayOptionsV1, GoldReplayReportV1, Task } from "@hs/spec";
import { executeToolName } from "../presets.js";
import { offlineTask } from "../world/offline-tasks.js";

async function runEpisode(
  benchmark: BenchmarkV1,
  task: Task,
  code: string | null,
): Promise<{ success: boolean; reason: string; executeMs: number }> {
  const environment = await benchmark.createEnvironment(task, { seed: 0 });
  try {
    await environment.reset();
    let executeMs = 0;
    if (code !== null) {
      const started = performance.now();
      const result = await environment.step({ id: "gold", name: executeToolName, arguments: { code } });
      executeMs = performance.now() - started;
      if (result.isError)
        return {
          success: false,
          reason: `the reference solution failed: ${result.content.slice(-400)}`,
          executeMs,
        };
    }
    const grade = await environment.grade();
    const failures =
      (grade.details.failures as Array<{ requirement: string; trace: string }> | undefined) ?? [];
    return {
      success: grade.success,
      reason: failures.map((failure) => `${failure.requirement}: ${failure.trace}`).join("; "),
      executeMs,
    };
  } finally {
    await environment.close();
  }
}

/**
 * Gold replay of the offline world through the real path (HTTP client, offline server, sandboxed
 * Python): each task's reference solution must pass every test; an episode that runs nothing must
 * pass none of the tasks.
 */
export async function offlineGoldReplay(
  benchmark: BenchmarkV1,
  options: GoldReplayOptionsV1,
  concurrency = 1,
): Promise<GoldReplayReportV1> {
  return await goldReplay(benchmark, options, {
    concurrency,
    world: "offline",
    solutionOf: async (task) => offlineTask(task.id)?.solution ?? "",
  });
}

/** How a gold replay finds each task's reference solution, and what it calls the world. */
export interface GoldReplaySource {
  /** Episodes at once (one per server). */
  concurrency: number;
  /** `offline` or `real`, reported in the details. */
  world: string;
  /** The reference solution's code; a rejection is the task's failure reason. */
  solutionOf: (task: Task) => Promise<string>;
}

/**
 * Gold replay over any AppWorld servers: each task's reference solution in one episode, nothing in
 * another, both graded by the server's `/evaluate`.
 */
export async function goldReplay(
  benchmark: BenchmarkV1,
  options: GoldReplayOptionsV1,
  source: GoldReplaySource,
): Promise<GoldReplayReportV1> {
  const concurrency = source.concurrency;
  const { tasks, problems } = await benchmark.loadTasks(options.tasks);
  const failures: GoldReplayFailure[] = [];
  let passed = 0;
  let emptyPassed = 0;
  let executeMs = 0;
  let done = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < tasks.length && options.signal?.aborted !== true) {
      const task = tasks[next] as Task;
      next += 1;
      let solution: string;
      try {
        solution = await source.solutionOf(task);
      } catch (error) {
        failures.push({ taskId: task.id, reason: (error as Error).message });
        done += 1;
        options.onProgress?.(done, tasks.length, task.id);
        continue;
      }
      const reference = await runEpisode(benchmark, task, solution);
      executeMs += reference.executeMs;
      if (reference.success) passed += 1;
      else failures.push({ taskId: task.id, reason: reference.reason });
      const empty = await runEpisode(benchmark, task, null);
      if (empty.success) {
        emptyPassed += 1;
        failures.push({ taskId: task.id, reason: "the empty solution passed" });
      }
      done += 1;
      options.onProgress?.(done, tasks.length, task.id);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  const seconds = (performance.now() - started) / 1000;
  return {
    passed,
    total: tasks.length,
    emptyPassed,
    failures: failures.sort((left, right) => left.taskId.localeCompare(right.taskId)),
    ...(problems.length === 0 ? {} : { problems: problems.map((problem) => problem.message) }),
    details: {
      world: source.world,
      concurrency,
      seconds: Math.round(seconds * 100) / 100,
      episodesPerSecond: Math.round(((2 * tasks.length) / Math.max(seconds, 1e-9)) * 100) / 100,
      meanReferenceExecuteMs: Math.round((executeMs / Math.max(tasks.length, 1)) * 10) / 10,
    },
  };
}
