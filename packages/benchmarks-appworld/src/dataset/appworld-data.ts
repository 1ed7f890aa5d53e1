import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import { InvalidInputError } from "@hs/spec";
import { z } from "zod";
import { supervisorSchema } from "../protocol/schemas.js";

/**
 * Readers of AppWorld's data directory as a real install lays it out (`<root>/data/tasks/<id>/specs.json`
 * and `<root>/data/tasks/<id>/ground_truth/*`; ace-agent/ace-appworld src/appworld/task.py:91-111 and
 * src/appworld/ground_truth.py:181-252). Every file is checked with zod; a bad one names itself.
 */

/** `specs.json` of a task (task.py:100-111; the `main_user` spelling is accepted as there). */
export const taskSpecsSchema = z
  .object({
    /** The instruction. */
    instruction: z.string(),
    /** The user the agent works for. */
    supervisor: supervisorSchema.passthrough().optional(),
    /** Older name of `supervisor`. */
    main_user: supervisorSchema.passthrough().optional(),
    /** ISO date and time of the task's world. */
    datetime: z.string(),
    /** Version of the databases the task was generated with. */
    db_version: z.string(),
  })
  .passthrough()
  .refine((specs) => specs.supervisor !== undefined || specs.main_user !== undefined, {
    message: "specs.json needs a supervisor",
  });
/** A task's specs. */
export type TaskSpecs = z.infer<typeof taskSpecsSchema>;

/** `ground_truth/metadata.json`: `difficulty` is required (ground_truth.py:61-68), `mode` says full or minimal. */
export const groundTruthMetadataSchema = z
  .object({
    /** Difficulty 1-3. */
    difficulty: z.number().int().min(1).max(3),
    /** `full` (solution code shipped) or `minimal` (evaluation only); absent means full (ground_truth.py:188). */
    mode: z.enum(["full", "minimal"]).optional(),
  })
  .passthrough();
/** A task's ground-truth metadata. */
export type GroundTruthMetadata = z.infer<typeof groundTruthMetadataSchema>;

/** The directory of one task. */
export function taskDirectory(root: string, taskId: string): string {
  return join(root, "data", "tasks", taskId);
}

async function readJsonFile<Schema extends z.ZodType>(
  file: string,
  schema: Schema,
): Promise<z.infer<Schema>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new InvalidInputError(
      `cannot read ${file}: ${(error as Error).message}`,
      { file },
      { cause: error },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(
      `${file} is not JSON: ${(error as Error).message}`,
      { file },
      { cause: error },
    );
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = (issue?.path ?? []).join(".");
    throw new InvalidInputError(`${file}: ${issue?.message ?? "invalid"}`, { file, field });
  }
  return parsed.data;
}

/** A task's `specs.json`. */
export async function readTaskSpecs(root: string, taskId: string): Promise<TaskSpecs> {
  return await readJsonFile(join(taskDirectory(root, taskId), "specs.json"), taskSpecsSchema);
}

/** A task's `ground_truth/metadata.json` (where `load_task_ids` reads the difficulty, task.py:260-265). */
export async function readGroundTruthMetadata(root: string, taskId: string): Promise<GroundTruthMetadata> {
  const file = join(taskDirectory(root, taskId), "ground_truth", "metadata.json");
  return await readJsonFile(file, groundTruthMetadataSchema);
}

/** A task's `ground_truth/answer.json` (null when the task asks no question). */
export async function readGroundTruthAnswer(root: string, taskId: string): Promise<unknown> {
  return await readJsonFile(join(taskDirectory(root, taskId), "ground_truth", "answer.json"), z.unknown());
}

async function exists(file: string): Promise<boolean> {
  return await access(file).then(
    () => true,
    () => false,
  );
}

/**
 * The code `appworld verify tasks` executes for a task: its ground truth's compiled solution followed
 * by `solution(apis, requester)` (src/appworld/verify.py:116-127). `compiled_solution.py` is optional
 * (ground_truth.py:219-223), so `solution.py` is used when it is absent. A minimal-mode ground truth
 * ships neither, which is an error naming the directory.
 */
export async function readGroundTruthSolution(root: string, taskId: string): Promise<string> {
  const directory = join(taskDirectory(root, taskId), "ground_truth");
  for (const name of ["compiled_solution.py", "solution.py"]) {
    const file = join(directory, name);
    if (!(await exists(file))) continue;
    const code = removeCanaryLines(await readFile(file, "utf8")).trim();
    if (code !== "") return `${code}\nsolution(apis, requester)`;
  }
  throw new InvalidInputError(
    `no ground-truth solution in ${directory} (minimal-mode ground truth ships none; AppWorld verifies train and dev only)`,
    { file: directory },
  );
}

/** `remove_canary` (ground_truth.py:377-380): drops the lines carrying AppWorld's canary comment. */
function removeCanaryLines(code: string): string {
  return code
    .split("\n")
    .filter((line) => !line.startsWith("# Canary String:"))
    .join("\n");
}
