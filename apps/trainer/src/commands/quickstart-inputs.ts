import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { readPool } from "@hs/evolution";
import { readProfileSet } from "@hs/profiles";
import { writeFileAtomic } from "../atomic-file.js";
import { RunDirectoryError, type RunFingerprint } from "../run-directory.js";
import type { QuickstartSettings } from "./quickstart.js";

/** Name of the file in which an experiment records the settings its stages ran with. */
export const experimentSettingsFileName = "quickstart-inputs.json";

/**
 * The settings that shape an experiment's stage outputs, by the option that sets them: the benchmark
 * and its options, what evolve and profile run on, the training budget, the router and the rescue
 * settings. Seeds, methods, held-out splits and workers are left out: changing them adds or skips runs
 * without changing a kept one.
 */
export function experimentFingerprint(settings: QuickstartSettings): RunFingerprint {
  const fingerprint: RunFingerprint = {
    "--bench (and its options)": settings.benchmarkArgs.join(" "),
    "--evolve-tasks": String(settings.evolveTasks),
    "--budget": String(settings.budget),
    "--reanchor-every": String(settings.reanchorEvery),
    ...(settings.router === undefined ? {} : { "--router": settings.router }),
    ...(settings.rescueGate === undefined ? {} : { "--rescue-gate": settings.rescueGate }),
    ...(settings.creditHarnessCalls === true ? { "--credit-harness-calls": "given" } : {}),
  };
  for (const [stage, flags] of Object.entries(settings.stageFlags ?? {})) {
    for (let index = 0; index + 1 < flags.length; index += 2)
      fingerprint[`${flags[index]} (${stage})`] = flags[index + 1] as string;
  }
  return fingerprint;
}

function describeChanges(before: RunFingerprint, now: RunFingerprint): string[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(now)])].sort();
  return names
    .filter((name) => before[name] !== now[name])
    .map(
      (name) =>
        `${name}: ${before[name] ?? "its default"} when the experiment started, ${now[name] ?? "its default"} now`,
    );
}

/**
 * Refuses to resume an experiment whose recorded settings differ from these (naming each changed
 * setting): its kept pool, profiles and runs were made with the recorded ones. Without a record
 * (a new experiment, or one that failed before its first stage finished) nothing is refused.
 */
export async function checkExperimentSettings(out: string, now: RunFingerprint): Promise<void> {
  const file = join(out, experimentSettingsFileName);
  if (!existsSync(file)) return;
  let recorded: RunFingerprint;
  try {
    recorded = JSON.parse(await readFile(file, "utf8")).settings as RunFingerprint;
    if (recorded === null || typeof recorded !== "object") throw new Error("no settings object");
  } catch (error) {
    throw new RunDirectoryError(
      `${file}: cannot read the experiment's settings (${error instanceof Error ? error.message : String(error)}); expected the JSON hs quickstart wrote after its first stage`,
    );
  }
  const changes = describeChanges(recorded, now);
  if (changes.length > 0)
    throw new RunDirectoryError(
      `cannot resume ${out}: its kept stages were made with other settings (${changes.join("; ")}). Give the settings it started with, or use another --out`,
    );
}

/** Records the settings once the first stage's output exists (a failed start records nothing). */
export async function recordExperimentSettings(out: string, settings: RunFingerprint): Promise<void> {
  const file = join(out, experimentSettingsFileName);
  if (existsSync(file)) return;
  await writeFileAtomic(file, `${JSON.stringify({ formatVersion: 1, settings }, null, 2)}\n`);
}

/**
 * Checks a kept stage output before quickstart builds on it: a pool or profile set that does not
 * parse (cut short by a full disk or a kill, or not one at all) stops the job with the file and
 * the reason, instead of "kept".
 */
export async function checkKeptStageOutput(
  stage: "evolve" | "profile",
  file: string,
  benchmark: string | undefined,
): Promise<void> {
  try {
    if (stage === "evolve") await readPool(file, benchmark === undefined ? {} : { benchmark });
    else await readProfileSet(file);
  } catch (error) {
    throw new RunDirectoryError(
      `${stage}: the kept ${file} is not a usable ${stage === "evolve" ? "pool" : "profile set"} (${error instanceof Error ? error.message : String(error)}); delete it to run ${stage} again, or put a valid one there`,
    );
  }
}
