import {
  type BenchmarkReference,
  queuePackageVersion,
  rolloutQueueName,
  startRolloutWorker,
} from "@hs/queue";
import { openBenchmark } from "../benchmark-selection.js";
import { type Command, integerOption, stringOption, UsageError } from "../command.js";
import { loadBenchmarkPlugin } from "../plugins.js";
import { sharedOption } from "../shared-options.js";

/** Opens the benchmark a job names the way `--bench` would (an alias, a package or a plugin path). */
async function openReferenced(reference: BenchmarkReference) {
  const plugin = await loadBenchmarkPlugin(reference.specifier);
  return openBenchmark({
    values: {},
    positionals: [],
    options: {},
    benchmark: { specifier: reference.specifier, plugin, values: reference.options },
  });
}

/** `hs worker`: a rollout worker on the BullMQ queue of a Redis. */
export const workerCommand: Command = {
  name: "worker",
  summary: "run rollouts for hs train/evolve/profile/quickstart --redis on this machine",
  about: `Usage: hs worker --redis URL [--concurrency N]

Takes rollout jobs from the queue in Redis and runs them: any benchmark a job names (an alias, a
package or a plugin path, opened with the job's options and tasks), the embedded policy at the version
the job names (weights published by the trainer in Redis), a chat endpoint, or a Tinker sampler (the
sampler path the learner saved for that step, rendered with the job's tokenizer directory, which must
exist on this machine; the key is read from TINKER_API_KEY here). The job's lock is renewed
while an episode runs; a worker killed mid-episode leaves its job to another worker. Runs until
SIGINT or SIGTERM, then finishes the episodes under way.`,
  options: {
    redis: { type: "string", value: "URL", description: "redis://HOST:PORT of the queue (required)" },
    concurrency: sharedOption("concurrency", {
      description: "episodes at once (up to 256 for LLM-bound episodes)",
    }),
    "lock-ms": {
      type: "string",
      value: "MS",
      description: "job lock, renewed every half of it; a dead worker's jobs are taken over after it",
      default: 30_000,
      number: { kind: "integer", min: 100 },
    },
  },
  async run(args, io) {
    const redisUrl = stringOption(args, "redis");
    if (redisUrl === undefined) throw new UsageError("--redis URL is required");
    const concurrency = integerOption(args, "concurrency");
    const lockMs = integerOption(args, "lock-ms");
    const worker = startRolloutWorker({
      redisUrl,
      concurrency,
      lockDurationMs: lockMs,
      stalledIntervalMs: lockMs,
      openBenchmark: openReferenced,
      onEvent: (event) =>
        io.stderr(
          `worker: ${event.kind} ${event.jobId}${event.message === undefined ? "" : `: ${event.message}`}\n`,
        ),
    });
    await worker.waitUntilReady();
    io.stderr(
      `worker: taking jobs of ${rolloutQueueName()} (@hs/queue ${queuePackageVersion}) from ${redisUrl}, ${concurrency} at once\n`,
    );
    await new Promise<void>((stop) => {
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
    io.stderr("worker: stopping after the episodes under way\n");
    await worker.close();
    io.stdout(`worker: ${worker.done} episodes done\n`);
    return 0;
  },
};
