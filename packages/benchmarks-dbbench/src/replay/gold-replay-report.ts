import type { GoldReplayOptionsV1, GoldReplayReportV1 } from "@hs/spec";
import type { DbBench } from "../create-dbbench.js";
import type { GradingProtocol } from "../grading/grade-answer.js";
import { emptyReplay, goldReplay } from "./gold-replay.js";

/**
 * `BenchmarkV1.goldReplay` for DBBench: `passed`/`total` are the graded part of `goldReplay` (label SQL
 * for INSERT/UPDATE, the label as the answer for queries); `emptyPassed` counts tasks that an empty
 * answer, committed without running anything, passes; `details` carries the engine, grader, per-type
 * counts, the informational dataset-SQL replay, load problems and throughput.
 */
export async function goldReplayReport(
  benchmark: DbBench,
  options: GoldReplayOptionsV1,
  protocol: GradingProtocol,
): Promise<GoldReplayReportV1> {
  const report = await goldReplay({
    benchmark,
    tasks: options.tasks,
    protocol,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    onProgress: (done, total) => options.onProgress?.(done, total, "reference solutions"),
  });
  const { tasks } = await benchmark.loadTasks(options.tasks);
  const empty = await emptyReplay(benchmark, tasks, protocol, options.signal);
  const emptyPasses = empty.filter((entry) => entry.passed);
  return {
    passed: report.passed,
    total: report.total,
    emptyPassed: emptyPasses.length,
    failures: [
      ...report.failures.map((failure) => ({
        taskId: failure.taskId,
        reason: failure.reason ?? "not passed",
      })),
      ...emptyPasses.map((entry) => ({
        taskId: entry.taskId,
        reason: `an empty answer passes (${entry.category})`,
      })),
    ],
    problems: report.problems,
    details: {
      engine: report.engine,
      protocol: report.protocol,
      perType: report.perType,
      datasetSql: {
        passed: report.datasetSql.passed,
        total: report.datasetSql.total,
        failures: report.datasetSql.failures.map((failure) => ({
          taskId: failure.taskId,
          reason: failure.reason,
        })),
      },
      emptyPassedPerType: countByType(emptyPasses),
      elapsedMs: report.elapsedMs,
      episodesPerSecond: report.episodesPerSecond,
    },
  };
}

function countByType(entries: readonly { category: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of entries) counts[entry.category] = (counts[entry.category] ?? 0) + 1;
  return counts;
}
