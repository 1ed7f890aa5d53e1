import type { Command } from "../command.js";
import { engineDiffCommand } from "./engine-diff.js";
import { evalCommand } from "./eval.js";
import { evolveCommand } from "./evolve.js";
import { exportCommand } from "./export.js";
import { goldReplayCommand } from "./gold-replay.js";
import { profileCommand } from "./profile.js";
import { quickstartCommand } from "./quickstart.js";
import { reportCommand } from "./report.js";
import { routeCommand } from "./route.js";
import { serveCommand } from "./serve.js";
import { trainCommand } from "./train.js";
import { workerCommand } from "./worker.js";

/** Every `hs` subcommand, in the order `hs --help` lists them. */
export const commands: Command[] = [
  quickstartCommand,
  evolveCommand,
  profileCommand,
  trainCommand,
  evalCommand,
  routeCommand,
  reportCommand,
  goldReplayCommand,
  engineDiffCommand,
  exportCommand,
  serveCommand,
  workerCommand,
];
