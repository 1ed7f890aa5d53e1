import { parseArgs } from "node:util";
import type { BenchmarkPluginV1 } from "@hs/spec";
import { checkArguments } from "./arguments.js";
import { type Command, type CommandArguments, type CommandIo, UsageError } from "./command.js";
import { commands } from "./commands/index.js";
import { messageWithSource } from "./error-context.js";
import { commandUsage, overview, pluginOptionTable, pluginUsage } from "./help.js";
import { type OptionSpec, type OptionTable, parseArgsOptions } from "./option-table.js";
import { loadBenchmarkPlugin } from "./plugins.js";

/** The value of `--name V` or `--name=V` in raw arguments, before they are parsed. */
function rawOption(argv: readonly string[], name: string): string | undefined {
  for (const [index, argument] of argv.entries()) {
    if (argument === `--${name}`) return argv[index + 1];
    if (argument.startsWith(`--${name}=`)) return argument.slice(name.length + 3);
  }
  return undefined;
}

/**
 * The command's options plus those its benchmark plugin adds. An option both define with the same type
 * is shared (both read the value); with another type it is an error of the plugin.
 */
function optionsWith(command: Command, plugin: BenchmarkPluginV1 | undefined): OptionTable {
  if (plugin === undefined) return command.options;
  const options = { ...command.options };
  const added = pluginOptionTable(plugin);
  for (const [name, option] of Object.entries(added)) {
    const own = command.options[name];
    if (own !== undefined && own.type !== option.type)
      throw new UsageError(
        `benchmark plugin ${plugin.id} defines --${name}, which hs ${command.name} has with another type`,
      );
    options[name] = own ?? option;
  }
  return options;
}

/** The part of a parseArgs token the repeat check reads. */
interface ParsedToken {
  kind: string;
  name?: string;
  rawName?: string;
  value?: string | undefined;
}

/**
 * An option given twice is refused (parseArgs would keep the last value silently, so `--data a
 * --data b --trajectories a` would overwrite a) unless the command declares it `multiple`.
 */
export function refuseRepeatedOptions(
  tokens: readonly ParsedToken[],
  options: Record<string, Pick<OptionSpec, "type" | "multiple">>,
): void {
  const seen = new Map<string, string>();
  for (const token of tokens) {
    if (token.kind !== "option" || token.name === undefined || options[token.name]?.multiple === true)
      continue;
    const raw = token.rawName ?? `--${token.name}`;
    const shown = token.value === undefined ? raw : `${raw} ${token.value}`;
    const earlier = seen.get(token.name);
    if (earlier !== undefined)
      throw new UsageError(
        `--${token.name} is given twice (${earlier}, then ${shown}); give each option once`,
      );
    seen.set(token.name, shown);
  }
}

/**
 * Parses a command's arguments by its table (and its benchmark plugin's options): unknown options,
 * repeated ones, stray positionals, empty and out-of-range values and options without their
 * companion are refused before the command runs.
 */
export function parseWithTable(
  command: Command,
  argv: string[],
  plugin?: BenchmarkPluginV1,
): Omit<CommandArguments, "benchmark"> {
  const options = optionsWith(command, plugin);
  const parsed = parseArgs({
    args: argv,
    options: parseArgsOptions(options),
    allowPositionals: true,
    strict: true,
    tokens: true,
  });
  refuseRepeatedOptions(parsed.tokens, options);
  checkArguments({ ...command, options }, parsed);
  return { values: parsed.values, positionals: parsed.positionals, options };
}

async function parseCommandArguments(
  command: Command,
  argv: string[],
  io: CommandIo,
): Promise<CommandArguments | null> {
  const specifier = "bench" in command.options ? rawOption(argv, "bench") : undefined;
  const plugin = specifier === undefined ? undefined : await loadBenchmarkPlugin(specifier);
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout(`${commandUsage(command).trimEnd()}\n${plugin === undefined ? "" : pluginUsage(plugin)}`);
    return null;
  }
  const parsed = parseWithTable(command, argv, plugin);
  if (plugin === undefined || specifier === undefined) return parsed;
  const values = Object.fromEntries(
    Object.keys(plugin.options).map((name) => [name, parsed.values[name] as string | boolean | undefined]),
  );
  return { ...parsed, benchmark: { specifier, plugin, values } };
}

/** Runs the CLI with the given arguments; resolves to the exit code. */
export async function main(argv: string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "help" && rest[0] !== undefined) return main([rest[0], "--help"], io);
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(overview(commands));
    return 0;
  }
  const command: Command | undefined = commands.find((candidate) => candidate.name === name);
  if (command === undefined) {
    io.stderr(`hs: unknown command "${name}"\n\n${overview(commands)}`);
    return 2;
  }
  let values: CommandArguments["values"] = {};
  try {
    const args = await parseCommandArguments(command, rest, io);
    if (args === null) return 0;
    values = args.values;
    return await command.run(args, io);
  } catch (error) {
    if (
      error instanceof UsageError ||
      (error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))
    ) {
      io.stderr(`hs ${name}: ${error.message}\n\n${commandUsage(command).trimEnd()}\n`);
      return 2;
    }
    io.stderr(`hs ${name}: ${messageWithSource(error, values)}\n`);
    return 1;
  }
}
