import type { GoldReplayReportV1 } from "@hs/spec";
import { openBenchmark } from "../benchmark-selection.js";
import { type Command, stringOption, UsageError } from "../command.js";
import { sharedOption } from "../shared-options.js";

function percent(passed: number, total: number): string {
  return total === 0 ? "-" : `${((passed / total) * 100).toFixed(1)}%`;
}

function isCount(value: unknown): value is { passed: number; total: number } {
  return typeof value === "object" && value !== null && "passed" in value && "total" in value;
}

/** The report as text: the total, per-group counts found in `details`, the empty solution, each failure. */
export function formatGoldReplay(report: GoldReplayReportV1, source: string): string {
  const lines = [`gold replay of ${source}`];
  for (const [name, value] of Object.entries(report.details ?? {})) {
    if (typeof value !== "object" || value === null || isCount(value)) continue;
    const counts = Object.entries(value).filter(
      (entry): entry is [string, { passed: number; total: number }] => isCount(entry[1]),
    );
    if (counts.length === 0) continue;
    lines.push(`  ${name}:`);
    for (const [group, count] of counts)
      lines.push(
        `    ${group.padEnd(18)} ${count.passed}/${count.total} (${percent(count.passed, count.total)})`,
      );
  }
  lines.push(
    `  ${"all".padEnd(20)} ${report.passed}/${report.total} (${percent(report.passed, report.total)})`,
  );
  lines.push(`  empty solution passed ${report.emptyPassed}/${report.total}`);
  for (const failure of report.failures) lines.push(`  FAIL ${failure.taskId}: ${failure.reason}`);
  for (const problem of report.problems ?? []) lines.push(`  NOT LOADED ${problem}`);
  return `${lines.join("\n")}\n`;
}

/** Why a replay ran no task: the records that did not load, or none found. */
export function whyNothing(report: GoldReplayReportV1): string {
  const problems = report.problems ?? [];
  if (problems.length === 0) return "it holds no task (an empty file or split)";
  const shown = problems.slice(0, 3).join("; ");
  return `none of its records loaded (${problems.length} refused: ${shown}${problems.length > 3 ? "; ..." : ""})`;
}

/** `hs gold-replay`: runs each task's reference solution, and an empty one, through the adapter. */
export const goldReplayCommand: Command = {
  name: "gold-replay",
  summary: "replay each task's reference solution (and an empty one) through a benchmark adapter",
  about: `Usage: hs gold-replay --bench NAME [--split NAME | --data FILE] [benchmark options] [--json]

Runs every task's reference solution through the same environment and grader as an episode, and an
empty solution as well; prints the pass rate, how many tasks the empty solution passed (it should
pass none), each failure with its reason and each record that did not load. Exit code 0 when some
task was replayed, every reference passes and no empty solution does, 1 otherwise. "hs gold-replay --bench NAME --help" lists the benchmark's own options
(e.g. dbbench's --engine and --protocol).`,
  options: {
    bench: sharedOption("bench"),
    split: sharedOption("split"),
    data: sharedOption("data", {
      description: "a task file of the benchmark's format instead of a bundled split",
    }),
    json: sharedOption("json", {
      description: 'print {"passed":N,"total":M,"emptyPassed":K,"failures":[...],"details":{...}}',
    }),
  },
  async run(args, io) {
    const data = stringOption(args, "data");
    const split = stringOption(args, "split");
    if (data !== undefined && split !== undefined)
      throw new UsageError("--data and --split exclude each other");
    const benchmark = await openBenchmark(args);
    try {
      if (benchmark.goldReplay === undefined)
        throw new UsageError(`benchmark ${benchmark.id} has no gold replay (BenchmarkV1.goldReplay)`);
      const source = data ?? split ?? benchmark.trainSplit ?? benchmark.splits[0] ?? "train";
      let reported = 0;
      const report = await benchmark.goldReplay({
        tasks: data === undefined ? { split: source } : { path: data },
        onProgress: (done, total) => {
          if (done === total || Date.now() - reported > 5000) {
            reported = Date.now();
            io.stderr(`gold-replay: ${done}/${total}\n`);
          }
        },
      });
      io.stdout(args.values.json === true ? `${JSON.stringify(report)}\n` : formatGoldReplay(report, source));
      if (report.total === 0)
        io.stderr(`gold-replay: no task was replayed from ${source}: ${whyNothing(report)}\n`);
      return report.total > 0 && report.passed === report.total && report.emptyPassed === 0 ? 0 : 1;
    } finally {
      await benchmark.close?.();
    }
  },
};
