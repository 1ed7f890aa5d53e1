// A rollout worker as a process of its own, for drills that SIGKILL it. Needs the package built (dist/).
// Usage: node worker-process.mjs --redis URL --queue NAME [--bench lookup|dbbench] [--concurrency N]
//   [--lock-ms 1000] [--stalled-ms 500] [--step-delay-ms 0] [--hang-episodes 0]
//   [--behaviour good|garbage|other-job|other-version-unchecked|other-version]
// Prints "ready" once it takes jobs and one line per job done.
import { parseArgs } from "node:util";
import { createLookupBenchmark, createLookupGrammar } from "@hs/harness/test-environments";
import { hangingBenchmark, slowBenchmark, startFaultyWorker } from "../../dist/fault-drills/index.js";
import { startRolloutWorker } from "../../dist/index.js";

const { values } = parseArgs({
  options: {
    redis: { type: "string" },
    queue: { type: "string" },
    bench: { type: "string", default: "lookup" },
    concurrency: { type: "string", default: "1" },
    "lock-ms": { type: "string", default: "1000" },
    "stalled-ms": { type: "string", default: "500" },
    "step-delay-ms": { type: "string", default: "0" },
    "hang-episodes": { type: "string", default: "0" },
    behaviour: { type: "string", default: "good" },
  },
});

async function openBenchmark() {
  if (values.bench === "lookup") return createLookupBenchmark();
  const { createDbBench } = await import("@hs/benchmarks-dbbench");
  const { createDbBenchGrammar } = await import("@hs/grammar-dbbench");
  return createDbBench({ actionGrammar: createDbBenchGrammar() });
}
const base = await openBenchmark();
const grammar = () => (values.bench === "lookup" ? createLookupGrammar() : base.actionGrammar);
let benchmark = base;
if (Number(values["step-delay-ms"]) > 0)
  benchmark = slowBenchmark(benchmark, Number(values["step-delay-ms"]));
if (Number(values["hang-episodes"]) > 0)
  benchmark = hangingBenchmark(benchmark, Number(values["hang-episodes"]));

if (["garbage", "other-job", "other-version-unchecked"].includes(values.behaviour)) {
  startFaultyWorker({
    redisUrl: values.redis,
    queueName: values.queue,
    behaviour: values.behaviour,
    openBenchmark: async () => benchmark,
    grammar,
  });
} else {
  startRolloutWorker({
    redisUrl: values.redis,
    queueName: values.queue,
    concurrency: Number(values.concurrency),
    lockDurationMs: Number(values["lock-ms"]),
    stalledIntervalMs: Number(values["stalled-ms"]),
    openBenchmark: async () => benchmark,
    grammarOf: grammar,
    ...(values.behaviour === "other-version" ? { queueVersion: "0.0.0-other" } : {}),
    onEvent: (event) =>
      process.stdout.write(
        `${event.kind} ${event.jobId}${event.message === undefined ? "" : ` ${event.message}`}\n`,
      ),
  });
}
process.stdout.write("ready\n");
