// Measures the harness runtime's own cost per step against the environment alone, in one run.
// Usage: pnpm build && node bench/runtime-overhead.mjs [episodes]
import { performance } from "node:perf_hooks";
import { parseHarnessConfig, runEpisode } from "../packages/harness/dist/index.js";
import {
  createLookupBenchmark,
  createScriptedPolicy,
  lookupTextHarness,
} from "../packages/harness/dist/test-environments/index.js";

const episodes = Number(process.argv[2] ?? 2000);
const benchmark = createLookupBenchmark();
const { tasks } = await benchmark.loadTasks({});
const replies = ["lookup: peru", "dump", "lookup: atlantis", "lookup: japan", "answer: Paris"];
const harness = parseHarnessConfig({
  ...lookupTextHarness,
  context: { ...lookupTextHarness.context, keepLastTurns: 3, truncateObservationChars: 60 },
  budget: { maxSteps: 10, maxOutputChars: null },
});
const calls = [
  { id: "1", name: "lookup", arguments: { key: "peru" } },
  { id: "2", name: "dump", arguments: {} },
  { id: "3", name: "lookup", arguments: { key: "atlantis" } },
  { id: "4", name: "lookup", arguments: { key: "japan" } },
  { id: "5", name: "submit", arguments: { answer: "Paris" } },
];

async function environmentAlone() {
  for (let episode = 0; episode < episodes; episode++) {
    const environment = await benchmark.createEnvironment(tasks[episode % tasks.length], { seed: episode });
    await environment.reset();
    for (const call of calls) await environment.step(call);
    await environment.grade();
    await environment.close();
  }
}

async function throughHarness() {
  for (let episode = 0; episode < episodes; episode++) {
    const policy = createScriptedPolicy(replies);
    await runEpisode({ task: tasks[episode % tasks.length], benchmark, harness, policy, seed: episode });
  }
}

await environmentAlone();
await throughHarness();
const timings = {};
for (const [name, work] of [
  ["environment alone", environmentAlone],
  ["harness + environment", throughHarness],
]) {
  const started = performance.now();
  await work();
  timings[name] = (performance.now() - started) / (episodes * calls.length);
}
const overhead = timings["harness + environment"] - timings["environment alone"];
console.log(`episodes: ${episodes}, steps per episode: ${calls.length}`);
for (const [name, ms] of Object.entries(timings))
  console.log(`${name.padEnd(24)} ${(ms * 1000).toFixed(1)} µs/step`);
console.log(`runtime overhead           ${(overhead * 1000).toFixed(1)} µs/step`);
console.log(
  `ratio harness/environment  ${(timings["harness + environment"] / timings["environment alone"]).toFixed(2)}x`,
);
