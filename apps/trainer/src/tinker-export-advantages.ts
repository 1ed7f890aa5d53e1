import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type AdvantageMethod, advantageMethods, groupAdvantages } from "@hs/rescue-grpo";
import { InvalidInputError } from "@hs/spec";
import type { GroupAdvantages } from "@hs/tinker";

/**
 * The advantage function a run was trained with: `groupAdvantages` of `@hs/rescue-grpo` (the one the
 * trainer calls) with the `advantage` of the run's `config.json` (GRPO when the file or field is absent).
 */
export async function runAdvantages(runDirectory: string): Promise<GroupAdvantages> {
  const method = await runAdvantageMethod(runDirectory);
  return (rewards) => groupAdvantages(rewards, method);
}

async function runAdvantageMethod(runDirectory: string): Promise<AdvantageMethod> {
  const file = join(runDirectory, "config.json");
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return "grpo";
  }
  let advantage: unknown;
  try {
    advantage = (JSON.parse(text) as { advantage?: unknown }).advantage;
  } catch (error) {
    throw new InvalidInputError(`not JSON: ${(error as Error).message}`, { file }, { cause: error });
  }
  return advantageMethods.find((method) => method === advantage) ?? "grpo";
}
