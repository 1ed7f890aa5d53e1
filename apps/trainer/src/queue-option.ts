import { createHash } from "node:crypto";
import { resolve } from "node:path";
import {
  type BenchmarkReference,
  createQueueExecutor,
  type PolicyReference,
  type QueueExecutor,
} from "@hs/queue";
import type { PluginOptionValues, PolicyV1 } from "@hs/spec";
import {
  type BenchmarkSelection,
  type CommandArguments,
  type CommandIo,
  integerOption,
  stringOption,
  UsageError,
} from "./command.js";
import { sharedOption } from "./shared-options.js";

/** The `--redis` options of the commands that run episodes. */
export const redisOptions = {
  redis: sharedOption("redis"),
  "episode-time-limit": sharedOption("episode-time-limit"),
} as const;

/** A benchmark specifier as a worker elsewhere must read it: a path made absolute, a name as given. */
function portableSpecifier(specifier: string): string {
  return specifier.startsWith(".") || specifier.startsWith("/") ? resolve(specifier) : specifier;
}

function definedValues(values: PluginOptionValues): BenchmarkReference["options"] {
  const defined: BenchmarkReference["options"] = {};
  for (const [name, value] of Object.entries(values)) if (value !== undefined) defined[name] = value;
  return defined;
}

/** Where the run's tasks came from (`--data FILE` or the split). */
export interface TaskSource {
  /** `--data FILE`, when given. */
  data: string | undefined;
  /** The split otherwise. */
  split: string;
}

/**
 * The queue executor of `--redis URL`, or undefined without it. `run` names the run (its output path):
 * the job ids derive from it, so a resumed run finds the rollouts its first life already had run.
 */
export function queueExecutorOf(
  args: CommandArguments,
  io: CommandIo,
  context: {
    phase: string;
    run: string;
    selection?: BenchmarkSelection;
    tasks: TaskSource;
    /** What the jobs name as their policy (default: the embedded policy's published weights). */
    describePolicy?: (policy: PolicyV1) => Promise<PolicyReference>;
  },
): QueueExecutor | undefined {
  const redisUrl = stringOption(args, "redis");
  if (redisUrl === undefined) return undefined;
  const selection = context.selection ?? args.benchmark;
  if (selection === undefined)
    throw new UsageError("--redis needs --bench (the workers open the same benchmark)");
  const run = `${context.phase}-${createHash("sha256").update(resolve(context.run)).digest("hex").slice(0, 16)}`;
  const executor = createQueueExecutor({
    redisUrl,
    run,
    phase: context.phase,
    benchmark: {
      specifier: portableSpecifier(selection.specifier),
      options: definedValues(selection.values),
      tasks:
        context.tasks.data === undefined
          ? { split: context.tasks.split }
          : { path: resolve(context.tasks.data) },
    },
    timeLimitMs: integerOption(args, "episode-time-limit"),
    ...(context.describePolicy === undefined ? {} : { describePolicy: context.describePolicy }),
    onFault: (fault) => io.stderr(`queue: ${fault.kind} ${fault.jobId}: ${fault.message}\n`),
  });
  io.stderr(`queue: ${context.phase} episodes go to the workers of ${redisUrl} (run ${run})\n`);
  return executor;
}
