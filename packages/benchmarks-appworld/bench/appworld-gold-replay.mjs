// Gold replay of the offline AppWorld world through the real path (HTTP client -> offline server ->
// bubblewrap-sandboxed python3), and the cost of one execute beside the API work it does.
// Usage (after `pnpm --filter @hs/benchmarks-appworld build`):
//   node packages/benchmarks-appworld/bench/appworld-gold-replay.mjs [--split train|dev|test] [--parallelism N] [--json]
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
for (const split of splits) {
  reports[split] = await appworld.goldReplay({ tasks: { split } });
}

// The cost of one execute: an empty cell, a cell with one API call, a cell with 20 API calls.
const [task] = (await appworld.loadTasks({ split: "train" })).tasks;
const environment = await appworld.createEnvironment(task, { seed: 0 });
await environment.reset();
async function timeCells(code, repeats) {
  const started = performance.now();
  for (let index = 0; index < repeats; index += 1)
    await environment.step({ id: "t", name: "execute", arguments: { code } });
  return (performance.now() - started) / repeats;
}
const emptyMs = await timeCells("pass", 20);
const oneApiMs = await timeCells("apis.supervisor.show_profile()", 20);
const twentyApiMs = await timeCells("for _ in range(20):\n    apis.supervisor.show_profile()", 10);
await environment.close();
await appworld.close();

const cost = {
  executeEmptyMs: Math.round(emptyMs * 10) / 10,
  executeOneApiMs: Math.round(oneApiMs * 10) / 10,
  executeTwentyApisMs: Math.round(twentyApiMs * 10) / 10,
  perApiCallMs: Math.round(((twentyApiMs - emptyMs) / 20) * 100) / 100,
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
    `one execute: empty cell ${cost.executeEmptyMs} ms, one API call ${cost.executeOneApiMs} ms, 20 API calls ${cost.executeTwentyApisMs} ms (${cost.perApiCallMs} ms per API call)`,
  );
}
