import { createDbBench, type GoldReplayReport, goldReplay } from "@hs/benchmarks-dbbench";
import { type Command, stringOption, UsageError } from "../command.js";

/** Checks `--bench`; only dbbench has a gold replay here. */
export function requireDbBench(bench: string | undefined): void {
  if (bench === undefined) throw new UsageError("--bench is required (dbbench)");
  if (bench !== "dbbench")
    throw new UsageError(`--bench ${bench}: only dbbench is supported by this command`);
}

/** Human-readable gold replay report. */
export function formatGoldReplay(report: GoldReplayReport, source: string): string {
  const lines = [`gold replay of ${source} on ${report.engine} (grader ${report.protocol})`];
  for (const [type, count] of Object.entries(report.perType)) {
    lines.push(
      `  ${type.padEnd(16)} ${count.passed}/${count.total} (${((100 * count.passed) / count.total).toFixed(1)}%)`,
    );
  }
  lines.push(
    `  ${"all".padEnd(16)} ${report.passed}/${report.total} (${((100 * report.passed) / Math.max(1, report.total)).toFixed(1)}%)`,
  );
  for (const failure of report.failures)
    lines.push(`  FAIL ${failure.taskId} ${failure.category}: ${failure.reason ?? ""}`);
  for (const problem of report.problems) lines.push(`  NOT LOADED ${problem}`);
  lines.push(
    `dataset sql.query (information only, not a target): ${report.datasetSql.passed}/${report.datasetSql.total} reproduce their label`,
  );
  lines.push(`${report.episodesPerSecond.toFixed(1)} episodes/s`);
  return `${lines.join("\n")}\n`;
}

/** `hs gold-replay`: runs each task's reference solution through the adapter and grades it. */
export const goldReplayCommand: Command = {
  name: "gold-replay",
  summary: "replay each task's reference solution through a benchmark adapter and report pass rates",
  usage: `Usage: hs gold-replay --bench dbbench [--split NAME | --data FILE] [--engine sqlite|mysql://...] [--json]

Runs the label SQL of INSERT/UPDATE tasks (graded by the table hash) and submits the label as the
final answer of query tasks, through the same environment and grader as an episode; prints pass
rates per type and each failure with its reason. The dataset's own sql.query is replayed as well and
reported apart, for information only.

Options:
  --bench NAME        benchmark (dbbench)
  --split NAME        bundled split: standard-a (train) or dev (heldout); default standard-a
  --data FILE         a DBBench JSONL file instead of a bundled split
  --engine ENGINE     sqlite (default) or a mysql://user:password@host:port URL
  --protocol NAME     grader: v0.2 (default) or fc
  --json              print {"passed":N,"total":M,...} as JSON`,
  options: {
    bench: { type: "string" },
    split: { type: "string" },
    data: { type: "string" },
    engine: { type: "string" },
    protocol: { type: "string" },
    json: { type: "boolean" },
  },
  async run(args, io) {
    requireDbBench(stringOption(args, "bench"));
    const data = stringOption(args, "data");
    const split = stringOption(args, "split");
    if (data !== undefined && split !== undefined)
      throw new UsageError("--data and --split exclude each other");
    const protocol = stringOption(args, "protocol") ?? "v0.2";
    if (protocol !== "v0.2" && protocol !== "fc")
      throw new UsageError(`--protocol expects v0.2 or fc, got "${protocol}"`);
    const engine = stringOption(args, "engine") ?? "sqlite";
    const benchmark = createDbBench({ engine, protocol, queryTimeLimitMs: 30_000 });
    try {
      const report = await goldReplay({
        benchmark,
        tasks: data === undefined ? { split: split ?? "standard-a" } : { path: data },
        protocol,
        onProgress: (done, total) => {
          if (done % 25 === 0 || done === total) io.stderr(`gold-replay: ${done}/${total}\n`);
        },
      });
      if (args.values.json === true) io.stdout(`${JSON.stringify(report)}\n`);
      else io.stdout(formatGoldReplay(report, data ?? split ?? "standard-a"));
      return report.passed === report.total ? 0 : 1;
    } finally {
      await benchmark.close();
    }
  },
};
