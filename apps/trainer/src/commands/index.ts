import type { Command } from "../command.js";
import { reportCommand } from "./report.js";

/** Every `hs` subcommand, in the order `hs --help` lists them. */
export const commands: Command[] = [reportCommand];
