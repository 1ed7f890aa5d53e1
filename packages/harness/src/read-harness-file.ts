import type { HarnessConfig } from "@hs/spec";
import { readJsonFile } from "./json-file.js";
import { parseHarnessConfig } from "./parse-harness-config.js";

/**
 * Reads a harness config file: a BOM is accepted; a missing path, a directory, an empty file, invalid
 * JSON, an unknown key (with "did you mean") and a text rule naming a capture group its pattern lacks
 * are each an `InvalidInputError` naming the file and the field or line.
 */
export async function readHarnessConfigFile(file: string): Promise<HarnessConfig> {
  return parseHarnessConfig(await readJsonFile(file, "a harness config (schemaVersion 1)"), { file });
}
