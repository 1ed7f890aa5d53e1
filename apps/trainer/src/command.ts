import type { BenchmarkPluginV1, PluginOptionValues } from "@hs/spec";
import { parseNumberText } from "./arguments.js";
import type { OptionTable } from "./option-table.js";

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
  /** The table the values were parsed by (the command's options and its benchmark plugin's). */
  options: OptionTable;
  /** The benchmark plugin, when the command takes `--bench` and it was given. */
  benchmark?: BenchmarkSelection;
}

/** One `hs` subcommand. */
export interface Command {
  /** Subcommand name, e.g. `gold-replay`. */
  name: string;
  /** One line for `hs --help`. */
  summary: string;
  /** The usage line and what the command does: the head of `hs NAME --help`, above the options. */
  about: string;
  /** Every option the command takes: parsing, checks and the options part of help come from it. */
  options: OptionTable;
  /** What the positional arguments are, for a command that takes them (the others refuse any). */
  positionals?: string;
  /** Text after the options in help. */
  notes?: string;
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

/** `text`, the value of `--name`, as one of `choices`, or a usage error listing them. */
export function choiceOf<Choice extends string>(
  name: string,
  text: string,
  choices: readonly Choice[],
): Choice {
  const choice = choices.find((candidate) => candidate === text);
  if (choice === undefined) throw new UsageError(`--${name}: "${text}" is not one of ${choices.join(", ")}`);
  return choice;
}

/** The option's default in the command's table, for a reader given no fallback. */
export function tableDefault(args: CommandArguments, name: string): number {
  const fallback = args.options[name]?.default;
  if (typeof fallback !== "number") throw new Error(`--${name} has no numeric default in its table`);
  return fallback;
}

/**
 * Reads an integer option or throws a usage error naming it: decimal digits only, within the range
 * the command's table gives the option; absent, `fallback` or else the table's default.
 */
export function integerOption(args: CommandArguments, name: string, fallback?: number): number {
  const value = args.values[name];
  if (value === undefined) return fallback ?? tableDefault(args, name);
  if (typeof value !== "string") throw new UsageError(`--${name} expects a value`);
  const rule = args.options[name]?.number;
  return parseNumberText(name, value, rule?.kind === "integer" ? rule : { kind: "integer" });
}
