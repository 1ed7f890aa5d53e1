import { createReadStream } from "node:fs";
import { appendFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { createInterface } from "node:readline";
import { InvalidInputError, type Trajectory, trajectorySchema } from "@hs/spec";
import type { z } from "zod";
import { stripBom } from "./json-file.js";
import { describeZodIssue } from "./parse-harness-config.js";

/** Records read from a JSONL file, and one error per line that could not be read. */
export interface JsonlReadResult<T> {
  /** Valid records, in file order. */
  records: T[];
  /** One error per bad line (file, line and field named); the other lines are still read. */
  problems: InvalidInputError[];
}

/**
 * Reads a JSONL file line by line, validating each record. A corrupt, truncated or invalid line gives a
 * problem naming the file and line; every other line is still returned. Blank lines are skipped.
 */
export async function readJsonl<Schema extends z.ZodType>(
  file: string,
  schema: Schema,
): Promise<JsonlReadResult<z.infer<Schema>>> {
  const records: z.infer<Schema>[] = [];
  const problems: InvalidInputError[] = [];
  const lines = createInterface({
    input: createReadStream(file, "utf8"),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    // a UTF-8 byte order mark before the first record is an editor's, not part of the record
    const body = line === 1 ? stripBom(text) : text;
    if (body.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      problems.push(
        new InvalidInputError(
          `not valid JSON (${reason}); the line may be truncated`,
          { file, line },
          { cause: error },
        ),
      );
      continue;
    }
    const result = schema.safeParse(value);
    if (result.success) {
      records.push(result.data);
    } else {
      const { field, message } = describeZodIssue(result.error);
      problems.push(new InvalidInputError(message, { file, line, field }));
    }
  }
  return { records, problems };
}

/** Appends records to a JSONL file (one line each), creating the file and its directory if needed. */
export async function appendJsonl(file: string, records: readonly unknown[]): Promise<void> {
  if (records.length === 0) return;
  await mkdir(dirname(file), { recursive: true });
  await appendFile(file, records.map((record) => `${JSON.stringify(record)}\n`).join(""), "utf8");
}

/** Reads trajectories from a JSONL file; bad lines become problems, the rest load. */
export function readTrajectories(file: string): Promise<JsonlReadResult<Trajectory>> {
  return readJsonl(file, trajectorySchema);
}

/** Appends validated trajectories to a JSONL file. */
export async function appendTrajectories(file: string, trajectories: readonly Trajectory[]): Promise<void> {
  await appendJsonl(
    file,
    trajectories.map((trajectory) => trajectorySchema.parse(trajectory)),
  );
}
