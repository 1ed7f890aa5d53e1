import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { BenchmarkPluginV1, GrammarPluginV1, RouterPluginV1 } from "@hs/spec";
import { z } from "zod";
import { UsageError } from "./command.js";

/** Short names of the benchmark packages of this repository. */
export const benchmarkAliases: Readonly<Record<string, string>> = {
  dbbench: "@hs/benchmarks-dbbench",
  swegym: "@hs/benchmarks-swegym",
  appworld: "@hs/benchmarks-appworld",
};

/** Short names of the router packages of this repository (the built-in routers are named in `routers.ts`). */
export const routerAliases: Readonly<Record<string, string>> = {
  category: "@hs/router-category",
};

const isFunction = z.custom<(...values: never[]) => unknown>((value) => typeof value === "function", {
  message: "expected a function",
});

const pluginOptionSchema = z.object({
  type: z.enum(["string", "boolean"]),
  description: z.string(),
});

const benchmarkPluginSchema = z.object({
  specificationVersion: z.literal("v1"),
  id: z.string().min(1),
  description: z.string(),
  options: z.record(z.string().regex(/^[a-z][a-z0-9-]*$/, "a lower-case option name"), pluginOptionSchema),
  grammarModule: z.string().min(1).optional(),
  mainJobDefaults: z
    .object({
      budget: z.number().int().positive(),
      seeds: z.number().int().positive(),
      evolveTasks: z.number().int().nonnegative(),
      rollouts: z.number().int().positive(),
      generations: z.number().int().positive(),
      candidates: z.number().int().positive(),
      maxFailures: z.number().int().positive(),
      groupSize: z.number().int().min(2),
      promptsPerStep: z.number().int().positive(),
    })
    .partial()
    .strict()
    .optional(),
  createBenchmark: isFunction,
});

const routerPluginSchema = z.object({
  specificationVersion: z.literal("v1"),
  id: z.string().min(1),
  description: z.string(),
  createRouter: isFunction,
});

const grammarPluginSchema = z.object({
  specificationVersion: z.literal("v1"),
  benchmark: z.string().min(1),
  createGrammar: isFunction,
});

/** A specifier that names a file or directory (relative, absolute, or ending in .js) rather than a package. */
export function looksLikePath(specifier: string): boolean {
  return specifier.startsWith(".") || isAbsolute(specifier) || /\.[cm]?js$/.test(specifier);
}

function packageName(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split("/");
  const length = specifier.startsWith("@") ? 2 : 1;
  const rest = parts.slice(length).join("/");
  return { name: parts.slice(0, length).join("/"), subpath: rest === "" ? "." : `./${rest}` };
}

function exportTarget(entry: unknown): string | undefined {
  if (typeof entry === "string") return entry;
  if (typeof entry !== "object" || entry === null) return undefined;
  const conditions = entry as Record<string, unknown>;
  return exportTarget(conditions.import ?? conditions.node ?? conditions.default);
}

/** The file a package directory's `package.json` points at for `subpath` (ESM first). */
function packageEntry(directory: string, subpath = "."): string {
  const manifestFile = join(directory, "package.json");
  if (!existsSync(manifestFile)) return join(directory, "index.js");
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Record<string, unknown>;
  const exports = manifest.exports;
  const entry =
    typeof exports === "object" && exports !== null && !Array.isArray(exports) && subpath in exports
      ? (exports as Record<string, unknown>)[subpath]
      : subpath === "."
        ? (exports ?? manifest.module ?? manifest.main ?? "index.js")
        : undefined;
  const target = exportTarget(entry);
  if (target === undefined) throw new UsageError(`${manifestFile}: exports no "${subpath}" for import`);
  return join(directory, target);
}

/** A package installed in a `node_modules` at or above `from`, as the user's project resolves it. */
function findInstalled(specifier: string, from: string): string | undefined {
  const { name, subpath } = packageName(specifier);
  for (let directory = resolve(from); ; directory = dirname(directory)) {
    const candidate = join(directory, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return packageEntry(candidate, subpath);
    if (dirname(directory) === directory) return undefined;
  }
}

/** The file each loaded plugin module came from, so that what it names relative to itself resolves there. */
const moduleFiles = new WeakMap<object, string>();

async function importFile(file: string): Promise<Record<string, unknown>> {
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  moduleFiles.set(module, file);
  return module;
}

/**
 * Imports a plugin module: a file or package directory by path (relative to `from`), else a package
 * installed for the project at `from` (the current directory unless told), else one of the CLI's own
 * dependencies.
 */
export async function importPluginModule(
  specifier: string,
  from = process.cwd(),
): Promise<Record<string, unknown>> {
  if (looksLikePath(specifier)) {
    const path = resolve(from, specifier);
    if (!existsSync(path)) throw new UsageError(`${specifier}: no such file or directory`);
    return importFile(statSync(path).isDirectory() ? packageEntry(path) : path);
  }
  const installed = findInstalled(specifier, from) ?? findInstalled(specifier, process.cwd());
  if (installed !== undefined) return importFile(installed);
  try {
    const module = (await import(specifier)) as Record<string, unknown>;
    moduleFiles.set(module, fileURLToPath(import.meta.resolve(specifier)));
    return module;
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_MODULE_NOT_FOUND" && String(error).includes(specifier))
      throw new UsageError(
        `cannot find the package "${specifier}": install it, or give a path to the module`,
      );
    throw error;
  }
}

/** The directory of the module a plugin was loaded from (undefined for one not loaded here). */
export function pluginDirectoryOf(plugin: object): string | undefined {
  const file = moduleFiles.get(plugin);
  return file === undefined ? undefined : dirname(file);
}

function validPlugin<T>(
  module: Record<string, unknown>,
  exportName: string,
  schema: z.ZodType,
  what: string,
  specifier: string,
): T {
  const candidate = module[exportName] ?? module.default;
  const result = schema.safeParse(candidate);
  const file = moduleFiles.get(module);
  if (result.success && file !== undefined) moduleFiles.set(candidate as object, file);
  if (result.success) return candidate as T;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join(".") || "(the export)";
  throw new UsageError(
    `${specifier} does not export a ${what} as "${exportName}" or default: field "${field}": ${issue?.message ?? "invalid"}`,
  );
}

/** Loads a benchmark plugin by alias (`dbbench`), package name or path. */
export async function loadBenchmarkPlugin(specifier: string, from?: string): Promise<BenchmarkPluginV1> {
  if (specifier.trim() === "") throw new UsageError("--bench expects a benchmark name, package or path");
  const resolved = benchmarkAliases[specifier] ?? specifier;
  const module = await importPluginModule(resolved, from);
  return validPlugin(
    module,
    "benchmarkPlugin",
    benchmarkPluginSchema,
    "benchmark plugin (BenchmarkPluginV1)",
    specifier,
  );
}

/** Loads a router plugin by alias, package name or path. */
export async function loadRouterPlugin(specifier: string, from?: string): Promise<RouterPluginV1> {
  const resolved = routerAliases[specifier] ?? specifier;
  const module = await importPluginModule(resolved, from);
  return validPlugin(module, "routerPlugin", routerPluginSchema, "router plugin (RouterPluginV1)", specifier);
}

/** Loads an action-grammar plugin by package name or path. */
export async function loadGrammarPlugin(specifier: string, from?: string): Promise<GrammarPluginV1> {
  const module = await importPluginModule(specifier, from);
  return validPlugin(
    module,
    "grammarPlugin",
    grammarPluginSchema,
    "grammar plugin (GrammarPluginV1)",
    specifier,
  );
}
