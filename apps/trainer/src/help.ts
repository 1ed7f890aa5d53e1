import type { BenchmarkPluginV1 } from "@hs/spec";
import type { Command } from "./command.js";
import { type OptionTable, renderOptionTable } from "./option-table.js";
import { sharedOptions } from "./shared-options.js";

/** `hs CMD --help`: what the command does, then its options from its table, then its notes. */
export function commandUsage(command: Command): string {
  const notes = command.notes === undefined ? "" : `\n\n${command.notes.trimEnd()}`;
  return `${command.about.trimEnd()}\n\nOptions:\n${renderOptionTable(command.options)}${notes}\n`;
}

/** The options a benchmark plugin adds, as help lists them. */
export function pluginOptionTable(plugin: BenchmarkPluginV1): OptionTable {
  return Object.fromEntries(
    Object.entries(plugin.options).map(([name, option]) => [
      name,
      { type: option.type, value: "VALUE", description: option.description },
    ]),
  );
}

/** The part of `hs CMD --bench B --help` that lists the plugin's own options. */
export function pluginUsage(plugin: BenchmarkPluginV1): string {
  if (Object.keys(plugin.options).length === 0) return `\nBenchmark ${plugin.id} adds no options.\n`;
  return `\nOptions of benchmark ${plugin.id} (${plugin.description}):\n${renderOptionTable(pluginOptionTable(plugin))}\n`;
}

/** Each shared option with the commands that take it, in the order of `commands`. */
export function sharedOptionUse(commands: readonly Command[]): { name: string; commands: string[] }[] {
  return Object.keys(sharedOptions).map((name) => ({
    name,
    commands: commands.filter((command) => name in command.options).map((command) => command.name),
  }));
}

/** `hs help`: every command with its summary, and the options several of them share. */
export function overview(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((command) => command.name.length), 4);
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  const shared = sharedOptionUse(commands).filter((entry) => entry.commands.length > 1);
  const sharedWidth = Math.max(...shared.map((entry) => entry.name.length)) + 2;
  const sharedLines = shared.map(
    (entry) => `  ${`--${entry.name}`.padEnd(sharedWidth)}  ${entry.commands.join(", ")}`,
  );
  return `Usage: hs <command> [options]

Harness-S: train agents with sibling harnesses.

Commands:
${lines.join("\n")}

Options shared by several commands (the same meaning in each):
${sharedLines.join("\n")}

Run "hs <command> --help" or "hs help <command>" for a command's options ("hs <command> --bench B --help" adds the benchmark's).
`;
}
