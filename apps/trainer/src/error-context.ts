import { existsSync } from "node:fs";
import { InvalidInputError } from "@hs/harness";
import type { CommandArguments } from "./command.js";

/**
 * The message of an error with the file it came from when the error could not know it: a harness
 * section checked against the environment's tools (field `tools.expose.1`, an unknown tool) is
 * found only when an episode starts, far from the `--harness FILE` (or the `--pool FILE`) that
 * held it.
 */
export function messageWithSource(error: unknown, values: CommandArguments["values"]): string {
  const message = error instanceof Error ? error.message : String(error);
  if (!InvalidInputError.isInstance(error) || !("location" in error)) return message;
  const { file, field } = (error as InvalidInputError).location;
  if (file !== undefined || field === undefined || !field.startsWith("tools.")) return message;
  const harness = values.harness;
  if (typeof harness === "string" && existsSync(harness)) return `${harness}: ${message}`;
  const pool = values.pool ?? values.rank1;
  if (typeof pool === "string") return `a harness of ${pool}: ${message}`;
  return message;
}
