import { existsSync } from "node:fs";
import { mkdir, rename, rm, stat, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { readJsonFile } from "@hs/harness";
import { InvalidInputError, type LearnerV1 } from "@hs/spec";
import { z } from "zod";
import { rescueYieldsSchema } from "./rescue-gate.js";

/** Where the prompt stream stands (enough to continue the same order). */
export const promptStreamStateSchema = z.object({
  /** Task indices of the current pass. */
  order: z.array(z.number().int().nonnegative()),
  /** Next position in `order`. */
  position: z.number().int().nonnegative(),
  /** Passes started. */
  pass: z.number().int().nonnegative(),
  /** Prompts drawn so far. */
  drawn: z.number().int().nonnegative(),
});
/** Where the prompt stream stands. */
export type PromptStreamState = z.infer<typeof promptStreamStateSchema>;

/** The trainer's state after a completed step, saved beside the learner's checkpoint. */
export const runStateSchema = z.object({
  /** Format version. */
  formatVersion: z.literal(1),
  /** Steps completed. */
  step: z.number().int().nonnegative(),
  /** Rollouts spent so far. */
  rolloutsTotal: z.number().int().nonnegative(),
  /** What the rollouts so far bought (base and rescue signal groups); absent in runs saved before it. */
  yields: rescueYieldsSchema.optional(),
  /** The prompt stream. */
  prompts: promptStreamStateSchema,
  /** Byte sizes of the append-only run files at this point (lines past them are redone on resume). */
  fileSizes: z.record(z.string(), z.number().int().nonnegative()),
  /** Checkpoint directory (relative to the run directory) holding the learner state. */
  checkpoint: z.string(),
  /** Extra state of the caller (e.g. re-anchored profiles), JSON. */
  extra: z.unknown().optional(),
});
/** The trainer's state after a completed step. */
export type RunState = z.infer<typeof runStateSchema>;

const pointerFile = "latest.json";

/** Byte size of a file, 0 when it does not exist. */
export async function fileSize(file: string): Promise<number> {
  return existsSync(file) ? (await stat(file)).size : 0;
}

/**
 * Saves the learner to `checkpoints/step-N` and then points `checkpoints/latest.json` at it with an
 * atomic rename, so a kill at any moment leaves either the previous or the new state, never half of one.
 * Older step directories are removed unless `keep(step)` says otherwise.
 */
export async function saveRunState(
  runDirectory: string,
  state: Omit<RunState, "formatVersion" | "checkpoint">,
  learner: LearnerV1,
  keep: (step: number) => boolean,
  previous: RunState | null,
): Promise<RunState> {
  const checkpoint = join("checkpoints", `step-${String(state.step).padStart(5, "0")}`);
  const directory = join(runDirectory, checkpoint);
  await rm(directory, { recursive: true, force: true });
  await learner.save(directory);
  const full: RunState = { formatVersion: 1, checkpoint, ...state };
  const pointer = join(runDirectory, "checkpoints", pointerFile);
  const temporary = `${pointer}.${process.pid}.tmp`;
  await mkdir(join(runDirectory, "checkpoints"), { recursive: true });
  await writeFile(temporary, `${JSON.stringify(full)}\n`);
  await rename(temporary, pointer);
  if (previous !== null && !keep(previous.step) && previous.checkpoint !== checkpoint) {
    await rm(join(runDirectory, previous.checkpoint), { recursive: true, force: true });
  }
  return full;
}

/**
 * Loads the last saved state of a run directory and cuts its append-only files back to the sizes
 * recorded with it (lines written after the checkpoint belong to a step that will be redone).
 * Returns null when the run has no checkpoint yet.
 */
export async function loadRunState(runDirectory: string, learner: LearnerV1): Promise<RunState | null> {
  const pointer = join(runDirectory, "checkpoints", pointerFile);
  if (!existsSync(pointer)) return null;
  const parsed = runStateSchema.safeParse(await readJsonFile(pointer, "the checkpoint pointer of a run"));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidInputError(`not a run state: ${issue?.message}`, {
      file: pointer,
      field: issue?.path.join(".") ?? "",
    });
  }
  const state = parsed.data;
  await learner.load(join(runDirectory, state.checkpoint));
  for (const [name, size] of Object.entries(state.fileSizes)) {
    const file = join(runDirectory, name);
    const actual = await fileSize(file);
    if (actual < size)
      throw new InvalidInputError(`is shorter (${actual} bytes) than its checkpoint recorded (${size})`, {
        file,
      });
    if (actual > size) await truncate(file, size);
  }
  return state;
}
