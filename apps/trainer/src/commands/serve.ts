import { resolve } from "node:path";
import { startDashboard } from "@hs/dashboard";
import { numberArgument } from "../arguments.js";
import { type Command, stringOption, UsageError } from "../command.js";
import { sharedOption } from "../shared-options.js";

/** Waits for SIGINT or SIGTERM. */
function untilStopped(): Promise<void> {
  return new Promise((done) => {
    const finish = () => {
      process.off("SIGINT", finish);
      process.off("SIGTERM", finish);
      done();
    };
    process.once("SIGINT", finish);
    process.once("SIGTERM", finish);
  });
}

/** `hs serve DIR...`: the live dashboard over run and experiment directories. */
export const serveCommand: Command = {
  name: "serve",
  summary:
    "a live dashboard of run and experiment directories in the browser, updating while they are written",
  about: `Usage: hs serve DIR... [--port P] [--host H]

Serves a web page over each run directory (hs train --out) or experiment directory (hs quickstart
--out), read again every 1.5 s while they are written: per run the reward, success, signal share,
rescue attempts and saves, loss and gradient norm per step; per experiment the methods side by side
with every seed; the pool against the re-roll control and its profiles; the rescue matrix; and a
trajectory browser (filter by task, harness, outcome, failure mode; every turn of a trajectory as the
policy saw it; grading details only in a section marked as such). Files that cannot be read (a
missing file, a truncated last line) are named on the page. Stop with Ctrl-C.`,
  positionals: "run or experiment directories",
  options: {
    port: sharedOption("port", { description: "port (0: any free port)", default: 8787 }),
    host: {
      type: "string",
      value: "H",
      description: "address to listen on",
      default: "127.0.0.1",
      defaultNote: "this machine only",
    },
  },
  async run(args, io) {
    if (args.positionals.length === 0) throw new UsageError("name at least one run or experiment directory");
    const dashboard = await startDashboard({
      directories: args.positionals.map((path) => resolve(path)),
      port: numberArgument(args, "port"),
      host: stringOption(args, "host") ?? "127.0.0.1",
    }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE")
        throw new UsageError(`--port: ${error.message}; choose another port or 0`);
      throw error;
    });
    io.stdout(`dashboard: ${dashboard.url} (Ctrl-C stops it)\n`);
    await untilStopped();
    await dashboard.close();
    return 0;
  },
};
