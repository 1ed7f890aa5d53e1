import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** Fields that hold wall-clock measurements: the only part of a run that may differ between two runs. */
const clockFields = new Set(["wallMs", "policyMs", "environmentMs", "timings", "elapsedMs"]);

function dropClock(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropClock);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !clockFields.has(key))
      .map(([key, inner]) => [key, dropClock(inner)]),
  );
}

/** JSONL lines of a run file without their wall-clock fields, one string per line. */
export async function withoutClock(directory: string, file: string): Promise<string[]> {
  const text = await readFile(join(directory, file), "utf8");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.stringify(dropClock(JSON.parse(line))));
}

/** The first line where two runs' files differ (after dropping clock fields), or null when identical. */
export async function firstDifference(left: string, right: string, file: string): Promise<string | null> {
  const [a, b] = [await withoutClock(left, file), await withoutClock(right, file)];
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    if (a[index] !== b[index])
      return `${file} line ${index + 1}: ${a[index]?.slice(0, 300)} <> ${b[index]?.slice(0, 300)}`;
  }
  return null;
}
