// Gold replay of the offline AppWorld world through the real path (HTTP client -> offline server ->
// bubblewrap-sandboxed python3), and the cost of one execute beside the API work it does.
// Usage (after `pnpm --filter @hs/benchmarks-appworld build`):
//   node packages/benchmarks-appworld/bench/appworld-gold-replay.mjs [--split train|dev|test] [--parallelism N] [--cost-only] [--json]
import { createAppWorld } from "../dist/index.js";

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 ? argv[index + 1] : fallback;
};
const parallelism = Number(option("parallelism", "2"));
const splits = option("split") === undefined ? ["train", "dev", "test"] : [option("split")];
const appworld = createAppWorld({ parallelism });
const reports = {};
for (const split of argv.includes("--cost-only") ? [] : splits) {
  reports[split] = await appworld.goldReplay({ tasks: { split } });
}

// The cost of one execute: an empty cell, one API call, 100 API calls (medians, interleaved), and the
// same API's work alone, in process, without the shell and the pipe.
const [task] = (await appworld.loadTasks({ split: "train" })).tasks;
const environment = await appworld.createEnvironment(task, { seed: 0 });
await environment.reset();
const cells = {
  empty: "pass",
  oneApi: "apis.supervisor.show_profile()",
  hundredApis: "for _ in range(100):\n    apis.supervisor.show_profile()",
};
const samples = { empty: [], oneApi: [], hundredApis: [] };
for (let round = 0; round < 15; round += 1) {
  for (const [name, code] of Object.entries(cells)) {
    const started = performance.now();
    await environment.step({ id: "t", name: "execute", arguments: { code } });
    samples[name].push(performance.now() - started);
  }
}
await environment.close();
await appworld.close();
const median = (values) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];
const { callApi, newSession } = await import("../dist/world/call-api.js");
const { offlineTask } = await import("../dist/world/offline-tasks.js");
const world = structuredClone(offlineTask(task.id).start);
const session = newSession();
const inProcessStarted = performance.now();
for (let index = 0; index < 2000; index += 1) callApi(world, session, "supervisor", "show_profile", {});
const inProcessMs = (performance.now() - inProcessStarted) / 2000;
const round1 = (value) => Math.round(value * 10) / 10;
const cost = {
  executeEmptyMs: round1(median(samples.empty)),
  executeOneApiMs: round1(median(samples.oneApi)),
  executeHundredApisMs: round1(median(samples.hundredApis)),
  perApiCallInShellMs:
    Math.round(((median(samples.hundredApis) - median(samples.empty)) / 100) * 1000) / 1000,
  perApiCallInProcessMs: Math.round(inProcessMs * 1000) / 1000,
};
if (argv.includes("--json")) {
  console.log(JSON.stringify({ reports, cost }));
} else {
  for (const [split, report] of Object.entries(reports)) {
    console.log(
      `${split}: passed ${report.passed}/${report.total}, empty passed ${report.emptyPassed}, ${report.details.seconds} s, ${report.details.episodesPerSecond} episodes/s (parallelism ${parallelism}), mean reference execute ${report.details.meanReferenceExecuteMs} ms`,
    );
    for (const failure of report.failures) console.log(`  FAIL ${failure.taskId}: ${failure.reason}`);
  }
  console.log(
    `one execute (median of 15): empty cell ${cost.executeEmptyMs} ms, one API call ${cost.executeOneApiMs} ms, 100 API calls ${cost.executeHundredApisMs} ms`,
  );
  console.log(
    `per API call: ${cost.perApiCallInShellMs} ms from the shell over the pipe, ${cost.perApiCallInProcessMs} ms of API work in process`,
  );
}
