import { parseArgs } from "node:util";
import { checkArguments } from "./arguments.js";
import { type Command, type CommandIo, UsageError } from "./command.js";
import { commands } from "./commands/index.js";

function overview(): string {
  const width = Math.max(...commands.map((command) => command.name.length), 4);
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `Usage: hs <command> [options]\n\nHarness-S: train agents with sibling harnesses.\n\nCommands:\n${lines.join("\n")}\n\nRun "hs <command> --help" for a command's options.\n`;
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
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(`${command.usage.trimEnd()}\n`);
    return 0;
  }
  try {
    const parsed = parseArgs({ args: rest, options: command.options, allowPositionals: true, strict: true });
    const args = { values: parsed.values, positionals: parsed.positionals };
    checkArguments(command.name, args);
    return await command.run(args, io);
  } catch (error) {
    if (
      error instanceof UsageError ||
      (error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))
    ) {
      io.stderr(`hs ${name}: ${error.message}\n\n${command.usage.trimEnd()}\n`);
      return 2;
    }
    io.stderr(`hs ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
