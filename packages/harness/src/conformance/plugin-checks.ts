import type { BenchmarkV1, Task } from "@hs/spec";

/** Secrets shorter than this are looked for only as a whole metadata value, not inside text. */
export const shortSecretLength = 4;

/** The training and held-out splits a benchmark names that are not in its `splits`. */
export function splitProblems(benchmark: Pick<BenchmarkV1, "splits" | "trainSplit" | "heldoutSplits">) {
  const problems: string[] = [];
  for (const split of [benchmark.trainSplit, ...(benchmark.heldoutSplits ?? [])])
    if (split !== undefined && !benchmark.splits.includes(split))
      problems.push(`split ${split} is not in splits (${benchmark.splits.join(", ")})`);
  return problems;
}

/** The secrets that appear in `text` (those of at least `shortSecretLength` characters). */
export function textLeaks(text: string, gold: readonly string[]): string[] {
  return gold.filter((secret) => secret.trim().length >= shortSecretLength && text.includes(secret));
}

function metadataValues(value: unknown): string[] {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return [String(value).trim()];
  if (Array.isArray(value)) return value.flatMap(metadataValues);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(metadataValues);
  return [];
}

/**
 * The secrets a task holds: any of at least `shortSecretLength` characters anywhere in it, and any
 * shorter one (a numeric answer such as `12`) that is a whole metadata value.
 */
export function taskGoldLeaks(task: Task, gold: readonly string[]): string[] {
  const values = new Set(metadataValues(task.metadata));
  const short = gold.filter(
    (secret) => secret.trim() !== "" && secret.trim().length < shortSecretLength && values.has(secret.trim()),
  );
  return [...textLeaks(JSON.stringify(task), gold), ...short];
}

/** The problem of a task that holds gold, or none. */
export function taskGoldProblems(task: Task, gold: readonly string[]): string[] {
  const leaked = taskGoldLeaks(task, gold);
  return leaked.length === 0 ? [] : [`${task.id} holds gold: ${leaked.slice(0, 3).join(" | ")}`];
}
