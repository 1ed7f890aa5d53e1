import { createDbBench, createMysqlEngine, type EngineDiffReport, engineDiff } from "@hs/benchmarks-dbbench";
import { type Command, stringOption, UsageError } from "../command.js";
import { sharedOption } from "../shared-options.js";

/** Human-readable engine comparison. */
export function formatEngineDiff(report: EngineDiffReport): string {
  const lines = [
    `engine diff: ${report.candidate} vs ${report.reference}`,
    `  ${report.agreed}/${report.statements} statements agree (${(100 * report.agreement).toFixed(2)}%)`,
  ];
  for (const disagreement of report.disagreements) {
    lines.push(`  DIFF ${disagreement.taskId}: ${disagreement.sql}`);
    lines.push(`    reference: ${disagreement.reference.slice(0, 300)}`);
    lines.push(`    candidate: ${disagreement.candidate.slice(0, 300)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** `hs engine-diff`: runs the same statements on SQLite and MySQL/MariaDB and lists disagreements. */
export const engineDiffCommand: Command = {
  name: "engine-diff",
  summary: "run the same SQL on the SQLite engine and on MySQL/MariaDB; list every disagreement",
  about: `Usage: hs engine-diff --bench dbbench [--engine mysql://...] [--data FILE] [--json]

Runs the gold INSERT/UPDATE SQL (compared by table hash) and a generated set of queries over every
table (filters, aggregates, orderings, LIKE, numeric and text comparisons) on the in-process SQLite
engine and on the reference server, and reports the agreement and every disagreement.`,
  options: {
    bench: sharedOption("bench", { description: "benchmark (dbbench)" }),
    engine: {
      type: "string",
      value: "URL",
      description: "reference server (default HS_MYSQL_URL)",
    },
    data: sharedOption("data", { description: "a DBBench JSONL file instead of both bundled splits" }),
    json: sharedOption("json", { description: "print the report as JSON" }),
  },
  async run(args, io) {
    if (args.benchmark?.plugin.id !== "dbbench")
      throw new UsageError("--bench dbbench is required: engine-diff compares DBBench's SQL engines");
    const url = stringOption(args, "engine") ?? process.env.HS_MYSQL_URL;
    if (url === undefined || !url.startsWith("mysql://")) {
      throw new UsageError("--engine mysql://user:password@host:port is required (or set HS_MYSQL_URL)");
    }
    const data = stringOption(args, "data");
    const limits = { timeLimitMs: 30_000, maxRows: 100_000 };
    const benchmark = createDbBench({ engine: "sqlite", queryTimeLimitMs: limits.timeLimitMs });
    const reference = createMysqlEngine({ url, limits });
    try {
      const report = await engineDiff({
        benchmark,
        reference,
        tasks: data === undefined ? [{ split: "dev" }, { split: "standard-a" }] : [{ path: data }],
        onProgress: (done, total) => {
          if (done % 500 === 0 || done === total) io.stderr(`engine-diff: ${done}/${total}\n`);
        },
      });
      io.stdout(args.values.json === true ? `${JSON.stringify(report)}\n` : formatEngineDiff(report));
      return 0;
    } finally {
      await reference.close();
      await benchmark.close();
    }
  },
};
