import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { PluginOptionValues } from "@hs/spec";
import { z } from "zod";
import { type BenchmarkSelection, type CommandArguments, UsageError } from "./command.js";
import { loadBenchmarkPlugin, looksLikePath } from "./plugins.js";

/** Where `hs evolve` loaded a pool's benchmark from, as its evolution report records it. */
const benchmarkSourceSchema = z.object({
  /** `--bench` as given, with a path made absolute (so the record holds from any directory). */
  specifier: z.string().min(1),
  /** The values of the plugin's own options. */
  options: z.record(z.string(), z.union([z.string(), z.boolean()])),
});

/** What `benchmarkSourceOf` records. */
export type BenchmarkSource = z.infer<typeof benchmarkSourceSchema>;

/** The benchmark of these arguments as the evolution report records it, or undefined without `--bench`. */
export function benchmarkSourceOf(args: CommandArguments): BenchmarkSource | undefined {
  const selection = args.benchmark;
  if (selection === undefined) return undefined;
  const options = Object.fromEntries(
    Object.entries(selection.values).filter(
      (entry): entry is [string, string | boolean] => entry[1] !== undefined,
    ),
  );
  const specifier = looksLikePath(selection.specifier) ? resolve(selection.specifier) : selection.specifier;
  return { specifier, options };
}

/** The evolution report beside a pool file (`pool.json` -> `pool.evolution.json`). */
export function evolutionReportOf(poolFile: string): string {
  return `${poolFile.replace(/\.json$/, "")}.evolution.json`;
}

async function recordedSource(poolFile: string): Promise<BenchmarkSource | undefined> {
  const report = evolutionReportOf(poolFile);
  if (!existsSync(report)) return undefined;
  try {
    const parsed = z
      .object({ bench: benchmarkSourceSchema })
      .safeParse(JSON.parse(await readFile(report, "utf8")));
    return parsed.success ? parsed.data.bench : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The benchmark of a pool when `--bench` is absent: the one its evolution report says `hs evolve`
 * loaded (a plugin by path, with its option values), else the pool's benchmark id as an alias or
 * installed package. Neither loading is a usage error that asks for `--bench`.
 */
export async function poolBenchmarkSelection(
  poolFile: string,
  benchmarkId: string,
): Promise<BenchmarkSelection> {
  const source = await recordedSource(poolFile);
  const specifier = source?.specifier ?? benchmarkId;
  try {
    const plugin = await loadBenchmarkPlugin(specifier);
    return { specifier, plugin, values: (source?.options ?? {}) as PluginOptionValues };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const where =
      source === undefined
        ? `the pool's benchmark "${benchmarkId}" is not an alias or an installed package, and ${evolutionReportOf(poolFile)} does not say where hs evolve loaded it from`
        : `the benchmark hs evolve loaded for this pool (${specifier}, in ${evolutionReportOf(poolFile)}) does not load`;
    throw new UsageError(`give --bench: ${where} (${error.message})`);
  }
}
