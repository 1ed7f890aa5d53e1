import { resolve } from "node:path";
import { type ExportFormat, exportFormats, exportRun } from "@hs/tinker";
import { type Command, stringOption, UsageError } from "../command.js";

/** `hs export`: a run's trajectories for Python trainers (TRL JSONL, verl parquet). */
export const exportCommand: Command = {
  name: "export",
  summary: "write a run's trajectories as TRL JSONL or verl parquet",
  usage: `Usage: hs export --run DIR --format trl|trl-prompt|verl --out FILE

Reads DIR/trajectories.jsonl (bad lines are reported and skipped) and writes:
  trl         one TRL conversational row per trajectory (messages, tools, reward, group advantage,
              harness, token ids and action masks where the policy recorded them)
  trl-prompt  one prompt-only row per task (TRL GRPOTrainer's "prompt")
  verl        one parquet row per task (data_source, prompt, ability, reward_model, extra_info);
              ground_truth is null: a run holds no gold

Options:
  --run DIR       run directory (required)
  --format NAME   trl, trl-prompt or verl (required)
  --out FILE      output file (required)`,
  options: { run: { type: "string" }, format: { type: "string" }, out: { type: "string" } },
  async run(args, io) {
    const run = stringOption(args, "run");
    const format = stringOption(args, "format");
    const out = stringOption(args, "out");
    if (run === undefined) throw new UsageError("--run DIR is required");
    if (out === undefined) throw new UsageError("--out FILE is required");
    if (format === undefined || !(exportFormats as readonly string[]).includes(format)) {
      throw new UsageError(`--format must be one of ${exportFormats.join(", ")}`);
    }
    const summary = await exportRun({
      runDirectory: resolve(run),
      format: format as ExportFormat,
      outFile: resolve(out),
    });
    for (const problem of summary.problems) io.stderr(`export: skipped ${problem.message}\n`);
    io.stdout(`wrote ${summary.rows} rows from ${summary.trajectories} trajectories to ${resolve(out)}\n`);
    return 0;
  },
};
