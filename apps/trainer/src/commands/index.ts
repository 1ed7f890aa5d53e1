import type { Command } from "../command.js";

/** Every `hs` subcommand, in the order `hs --help` lists them. */
export const commands: Command[] = [];
