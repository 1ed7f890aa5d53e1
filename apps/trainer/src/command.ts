import type { ParseArgsConfig } from "node:util";
import type { BenchmarkPluginV1, PluginOptionValues } from "@hs/harness";
import { numberRules, parseNumberText } from "./arguments.js";

/** Where a command writes: results to stdout, progress and diagnostics to stderr. */
export interface CommandIo {
  /** Machine-readable or final output. */
  stdout: (text: string) => void;
  /** Progress and diagnostics. */
  stderr: (text: string) => void;
}

/** The benchmark plugin named by `--bench`, with the values of the options it added. */
export interface BenchmarkSelection {
  /** What `--bench` said (an alias, a package name or a path). */
  specifier: string;
  /** The loaded plugin. */
  plugin: BenchmarkPluginV1;
  /** Values of the plugin's own options. */
  values: PluginOptionValues;
}

/** Parsed arguments of a command. */
export interface CommandArguments {
  /** Option values by name. */
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  /** Positional arguments. */
  positionals: string[];
  /** The benchmark plugin, when the command takes `--bench` and it was given. */
  benchmark?: BenchmarkSelection;
}

/** One `hs` subcommand. */
export interface Command {
  /** Subcommand name, e.g. `gold-replay`. */
  name: string;
  /** One line for `hs --help`. */
  summary: string;
  /** Usage text for `hs NAME --help` (options and what they do). */
  usage: string;
  /** Options in `node:util` parseArgs form. */
  options: NonNullable<ParseArgsConfig["options"]>;
  /** Runs the command; resolves to the process exit code. */
  run(args: CommandArguments, io: CommandIo): Promise<number>;
}

/** Error for bad command-line usage; printed without a stack and exits with code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** Reads a string option or throws a usage error naming it. */
export function stringOption(args: CommandArguments, name: string): string | undefined {
  const value = args.values[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new UsageError(`--${name} expects a value`);
  if (value.trim() === "") throw new UsageError(`--${name} expects a value, got an empty one`);
  return value;
}

/**
 * Reads an integer option (with a default) or throws a usage error naming it: decimal digits only,
 * within the range `numberRules` gives the option (see arguments.ts).
 */
export function integerOption(args: CommandArguments, name: string, fallback: number): number {
  const value = args.values[name];
  if (value === undefined) return fallback;
  if (typeof value !== "string") throw new UsageError(`--${name} expects a value`);
  const rule = numberRules[name];
  return parseNumberText(name, value, rule?.kind === "integer" ? rule : { kind: "integer" });
}
