import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { InvalidInputError } from "@hs/spec";

/**
 * The step a run directory's last checkpoint ends (`checkpoints/latest.json`), 0 without one. A
 * truncated or invalid pointer is an `InvalidInputError` naming the file, the field and what was
 * expected, before any model is built.
 */
export async function readCheckpointStep(runDirectory: string): Promise<number> {
  const file = join(runDirectory, "checkpoints", "latest.json");
  if (!existsSync(file)) return 0;
  const text = await readFile(file, "utf8");
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new InvalidInputError(
      `the checkpoint pointer is not valid JSON (${error instanceof Error ? error.message : String(error)}; ${text.length} bytes, probably truncated); expected {"step":N,"checkpoint":"checkpoints/step-N",...}. Delete it to resume from the previous checkpoint directory's start, or use a new --out`,
      { file },
    );
  }
  const step = (value as { step?: unknown } | null)?.step;
  const checkpoint = (value as { checkpoint?: unknown } | null)?.checkpoint;
  if (typeof step !== "number" || !Number.isInteger(step) || step < 0)
    throw new InvalidInputError("expected a non-negative integer step", { file, field: "step" });
  if (typeof checkpoint !== "string" || !existsSync(join(runDirectory, checkpoint)))
    throw new InvalidInputError(
      `expected the path of an existing checkpoint directory, got ${JSON.stringify(checkpoint)}`,
      { file, field: "checkpoint" },
    );
  return step;
}

/**
 * Checks that a resumed run's `config.json` is readable JSON before the trainer compares it with
 * the new config; a cut or edited file is an `InvalidInputError` naming it and what was expected.
 */
export async function checkRunConfigFile(runDirectory: string): Promise<void> {
  const file = join(runDirectory, "config.json");
  if (!existsSync(file)) return;
  const text = await readFile(file, "utf8");
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new InvalidInputError(
      `the run's config is not valid JSON (${error instanceof Error ? error.message : String(error)}; ${text.length} bytes); expected the trainer config this run wrote at its start. Restore it, or use a new --out`,
      { file },
    );
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new InvalidInputError("expected a JSON object (the trainer config this run wrote at its start)", {
      file,
    });
}
