import { existsSync } from "node:fs";
import { InvalidInputError } from "@hs/spec";
import type { CommandArguments } from "./command.js";

/**
 * The message of an error with the file it came from when the error could not know it: a write
 * that failed on a full disk (Node's ENOSPC of `write` names no path) is said to be `--out`'s; a harness
 * section checked against the environment's tools (field `tools.expose.1`, an unknown tool) is
 * found only when an episode starts, far from the `--harness FILE` (or the `--pool FILE`) that
 * held it.
 */
export function messageWithSource(error: unknown, values: CommandArguments["values"]): string {
  const message = error instanceof Error ? error.message : String(error);
  const errno = error as NodeJS.ErrnoException;
  if (errno?.code === "ENOSPC" && errno.path === undefined) {
    // a failed write() names no file: say which output it was writing
    const out = typeof values.out === "string" ? ` while writing --out ${values.out}` : "";
    return `${message}${out}: the disk is full; free space and run the same command again`;
  }
  if (!InvalidInputError.isInstance(error) || !("location" in error)) return message;
  const { file, field } = (error as InvalidInputError).location;
  if (file !== undefined || field === undefined || !field.startsWith("tools.")) return message;
  const harness = values.harness;
  if (typeof harness === "string" && existsSync(harness)) return `${harness}: ${message}`;
  const pool = values.pool ?? values.rank1;
  if (typeof pool === "string") return `a harness of ${pool}: ${message}`;
  return message;
}
