import type { Command } from "../command.js";
import { evalCommand } from "./eval.js";
import { reportCommand } from "./report.js";
import { trainCommand } from "./train.js";

/** Every `hs` subcommand, in the order `hs --help` lists them. */
export const commands: Command[] = [trainCommand, evalCommand, reportCommand];
