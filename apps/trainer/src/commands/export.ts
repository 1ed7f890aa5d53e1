import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { type ExportFormat, exportFormats, exportRun } from "@hs/tinker";
import { replaceAtomically } from "../atomic-file.js";
import { type Command, stringOption, UsageError } from "../command.js";
import { checkOutputFile, RunDirectoryError } from "../run-directory.js";
import { liveLockHolder } from "../run-lock.js";
import { sharedOption } from "../shared-options.js";
import { runAdvantages } from "../tinker-export-advantages.js";

/**
 * A run that is still training, or that ended before its final weights, exports only part of its
 * trajectories: a live one is refused unless `allowPartial`, an unfinished one is warned about.
 */
async function checkRunFinished(run: string, allowPartial: boolean, warn: (text: string) => void) {
  const holder = await liveLockHolder(run);
  if (holder !== null && !allowPartial)
    throw new RunDirectoryError(
      `${run} is still being written by "${holder.command}" (pid ${holder.pid}, started ${holder.startedAt}): its trajectories are not all there yet; wait for it to finish, or pass --allow-partial to export what it holds now`,
    );
  if (holder !== null || !existsSync(join(run, "final")))
    warn(
      `export: warning: ${run} ${holder === null ? "has no final/ (the run did not finish)" : "is still training (--allow-partial)"}: the export holds only the trajectories written so far`,
    );
}

/** `hs export`: a run's trajectories for Python trainers (TRL JSONL, verl parquet). */
export const exportCommand: Command = {
  name: "export",
  summary: "write a run's trajectories as TRL JSONL or verl parquet",
  about: `Usage: hs export --run DIR --format trl|trl-prompt|verl --out FILE [--allow-partial]

Reads DIR/trajectories.jsonl (bad lines are reported and skipped) and writes:
  trl         one TRL conversational row per trajectory (messages, tools, reward, group advantage,
              harness, token ids and action masks where the policy recorded them)
  trl-prompt  one prompt-only row per task (TRL GRPOTrainer's "prompt")
  verl        one parquet row per task (data_source, prompt, ability, reward_model, extra_info);
              ground_truth is null
The run's trajectories keep the grader's details (gradeDetails: expected answers, test results);
no exported row carries them, only what the policy was shown, its actions and the reward.
OUT is written whole or not at all (a temporary file renamed into place), never over a file of DIR.`,
  options: {
    run: {
      type: "string",
      value: "DIR",
      description:
        "run directory (required); a run still training is refused, one without final/ is exported with a warning",
    },
    format: { type: "string", value: "NAME", description: "trl, trl-prompt or verl (required)" },
    out: sharedOption("out"),
    "allow-partial": {
      type: "boolean",
      description: "export a run that is still training (what it holds so far), with a warning",
    },
  },
  async run(args, io) {
    const run = stringOption(args, "run");
    const format = stringOption(args, "format");
    const out = stringOption(args, "out");
    if (run === undefined) throw new UsageError("--run DIR is required");
    if (out === undefined) throw new UsageError("--out FILE is required");
    if (format === undefined || !(exportFormats as readonly string[]).includes(format)) {
      throw new UsageError(`--format must be one of ${exportFormats.join(", ")}`);
    }
    const runDirectory = resolve(run);
    const outFile = await checkOutputFile("--out", out, [{ option: "--run", path: runDirectory }], {
      createParent: true,
    });
    await checkRunFinished(runDirectory, args.values["allow-partial"] === true, (text) =>
      io.stderr(`${text}\n`),
    );
    let summary: Awaited<ReturnType<typeof exportRun>> | undefined;
    await replaceAtomically(outFile, async (draft) => {
      summary = await exportRun({
        runDirectory,
        format: format as ExportFormat,
        outFile: draft,
        advantages: await runAdvantages(runDirectory),
      });
    });
    if (summary === undefined) throw new Error("export wrote nothing");
    for (const problem of summary.problems) io.stderr(`export: skipped ${problem.message}\n`);
    io.stdout(`wrote ${summary.rows} rows from ${summary.trajectories} trajectories to ${outFile}\n`);
    return 0;
  },
};
