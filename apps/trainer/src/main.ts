import { parseArgs } from "node:util";
import type { BenchmarkPluginV1 } from "@hs/harness";
import { checkArguments } from "./arguments.js";
import { type Command, type CommandArguments, type CommandIo, UsageError } from "./command.js";
import { commands } from "./commands/index.js";
import { messageWithSource } from "./error-context.js";
import { loadBenchmarkPlugin } from "./plugins.js";

function overview(): string {
  const width = Math.max(...commands.map((command) => command.name.length), 4);
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `Usage: hs <command> [options]\n\nHarness-S: train agents with sibling harnesses.\n\nCommands:\n${lines.join("\n")}\n\nRun "hs <command> --help" for a command's options ("hs <command> --bench B --help" adds the benchmark's).\n`;
}

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
function optionsWith(command: Command, plugin: BenchmarkPluginV1 | undefined): Command["options"] {
  if (plugin === undefined) return command.options;
  const options = { ...command.options };
  for (const [name, option] of Object.entries(plugin.options)) {
    const own = command.options[name];
    if (own !== undefined && own.type !== option.type)
      throw new UsageError(
        `benchmark plugin ${plugin.id} defines --${name}, which hs ${command.name} has with another type`,
      );
    options[name] = own ?? { type: option.type };
  }
  return options;
}

function pluginUsage(plugin: BenchmarkPluginV1): string {
  const entries = Object.entries(plugin.options);
  if (entries.length === 0) return `\nBenchmark ${plugin.id} adds no options.\n`;
  const width = Math.max(
    ...entries.map(([name, option]) => name.length + (option.type === "string" ? 6 : 0)),
  );
  const lines = entries.map(
    ([name, option]) =>
      `  ${`--${name}${option.type === "string" ? " VALUE" : ""}`.padEnd(width + 2)}  ${option.description}`,
  );
  return `\nOptions of benchmark ${plugin.id} (${plugin.description}):\n${lines.join("\n")}\n`;
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
export function refuseRepeatedOptions(tokens: readonly ParsedToken[], options: Command["options"]): void {
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

async function parseCommandArguments(
  command: Command,
  argv: string[],
  io: CommandIo,
): Promise<CommandArguments | null> {
  const specifier = "bench" in command.options ? rawOption(argv, "bench") : undefined;
  const plugin = specifier === undefined ? undefined : await loadBenchmarkPlugin(specifier);
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout(`${command.usage.trimEnd()}\n${plugin === undefined ? "" : pluginUsage(plugin)}`);
    return null;
  }
  const options = optionsWith(command, plugin);
  const parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true, tokens: true });
  refuseRepeatedOptions(parsed.tokens, options);
  checkArguments(command.name, { values: parsed.values, positionals: parsed.positionals });
  if (plugin === undefined || specifier === undefined)
    return { values: parsed.values, positionals: parsed.positionals };
  const values = Object.fromEntries(
    Object.keys(plugin.options).map((name) => [name, parsed.values[name] as string | boolean | undefined]),
  );
  return { values: parsed.values, positionals: parsed.positionals, benchmark: { specifier, plugin, values } };
}

/** Runs the CLI with the given arguments; resolves to the exit code. */
export async function main(argv: string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(overview());
    return 0;
  }
  const command: Command | undefined = commands.find((candidate) => candidate.name === name);
  if (command === undefined) {
    io.stderr(`hs: unknown command "${name}"\n\n${overview()}`);
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
      io.stderr(`hs ${name}: ${error.message}\n\n${command.usage.trimEnd()}\n`);
      return 2;
    }
    io.stderr(`hs ${name}: ${messageWithSource(error, values)}\n`);
    return 1;
  }
}
