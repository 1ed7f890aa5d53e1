import { resolve } from "node:path";
import { writeReport } from "@hs/report";
import { type Command, stringOption, UsageError } from "../command.js";
import { checkOutputDirectory, requireDirectories } from "../run-directory.js";
import { sharedOption } from "../shared-options.js";

/** `hs report DIR... --out REPORT`: the HTML report of one or more experiments. */
export const reportCommand: Command = {
  name: "report",
  summary: "write the HTML report (tables and charts) of experiment directories",
  about: `Usage: hs report DIR... --out REPORT [--json]

Reads each experiment directory (results.json, runs/METHOD/seed-N/metrics.jsonl, evolution.json,
profiles.json) and writes REPORT/index.html, a self-contained page, and REPORT/charts/*.svg|png.`,
  positionals: "experiment directories",
  options: {
    out: sharedOption("out", { value: "REPORT", description: "output directory (required)" }),
    json: sharedOption("json", {
      description: 'print {"html": PATH, "charts": [PNG paths], "problems": [...]} on stdout',
    }),
  },
  async run(args, io) {
    const out = stringOption(args, "out");
    if (out === undefined) throw new UsageError("--out REPORT is required");
    if (args.positionals.length === 0) throw new UsageError("name at least one experiment directory");
    const experimentDirectories = requireDirectories("experiment directory", args.positionals);
    const outDirectory = await checkOutputDirectory(
      "--out",
      out,
      experimentDirectories.map((path) => ({ option: "experiment directory", path })),
    );
    io.stderr(`report: reading ${args.positionals.length} experiment(s)...\n`);
    const { charts, experiments } = await writeReport({
      experiments: experimentDirectories,
      out: outDirectory,
    });
    const problems = experiments.flatMap((experiment) => experiment.problems);
    const html = resolve(outDirectory, "index.html");
    if (args.values.json === true) {
      io.stdout(`${JSON.stringify({ html, charts: charts.map((chart) => chart.files.png), problems })}\n`);
    } else {
      io.stdout(
        `wrote ${html} with ${charts.length} charts${problems.length > 0 ? ` (${problems.length} problems listed in it)` : ""}\n`,
      );
    }
    return 0;
  },
};
