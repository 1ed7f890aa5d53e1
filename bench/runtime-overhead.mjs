// Measures the harness runtime's own cost per step against the environment alone, in one run, on the
// lookup test environment (in-memory, almost free) and on DBBench (SQLite, v0.2 text protocol).
// Usage: pnpm build && node bench/runtime-overhead.mjs [episodes]
import { performance } from "node:perf_hooks";
import { createDbBench } from "../packages/benchmarks-dbbench/dist/index.js";
import { runEpisode } from "../packages/harness/dist/index.js";
import {
  createLookupBenchmark,
  createScriptedPolicy,
  lookupTextHarness,
} from "../packages/harness/dist/test-environments/index.js";

const episodes = Number(process.argv[2] ?? 1000);

async function lookupCase() {
  const benchmark = createLookupBenchmark();
  const { tasks } = await benchmark.loadTasks({});
  const replies = ["lookup: peru", "dump", "lookup: atlantis", "lookup: japan", "answer: Paris"];
  const calls = [
    { name: "lookup", arguments: { key: "peru" } },
    { name: "dump", arguments: {} },
    { name: "lookup", arguments: { key: "atlantis" } },
    { name: "lookup", arguments: { key: "japan" } },
    { name: "submit", arguments: { answer: "Paris" } },
  ];
  return {
    name: "lookup (in memory)",
    benchmark,
    tasks,
    harness: lookupTextHarness,
    replies: () => replies,
    calls: () => calls,
  };
}

async function dbbenchCase() {
  const benchmark = createDbBench();
  const { tasks } = await benchmark.loadTasks({ split: "dev" });
  const harness = benchmark.presets["v0.2"];
  const table = (task) => task.metadata.tableName;
  const query = (task) => `SELECT * FROM \`${table(task)}\` LIMIT 3`;
  return {
    name: "dbbench (SQLite, v0.2 protocol)",
    benchmark,
    tasks,
    harness,
    replies: (task) => [
      `Looking.\nAction: Operation\n\`\`\`sql\n${query(task)}\n\`\`\``,
      `Counting.\nAction: Operation\n\`\`\`sql\nSELECT COUNT(*) FROM \`${table(task)}\`\n\`\`\``,
      'Done.\nAction: Answer\nFinal Answer: ["1"]',
    ],
    calls: (task) => [
      { name: "execute_sql", arguments: { query: query(task) } },
      { name: "execute_sql", arguments: { query: `SELECT COUNT(*) FROM \`${table(task)}\`` } },
      { name: "commit_final_answer", arguments: { answers: '["1"]' } },
    ],
  };
}

async function measure(setup) {
  const stepsPer = setup.calls(setup.tasks[0]).length;
  const environmentAlone = async () => {
    for (let episode = 0; episode < episodes; episode++) {
      const task = setup.tasks[episode % setup.tasks.length];
      const environment = await setup.benchmark.createEnvironment(task, { seed: episode });
      await environment.reset();
      for (const [index, call] of setup.calls(task).entries())
        await environment.step({ id: String(index), ...call });
      await environment.grade();
      await environment.close();
    }
  };
  const throughHarness = async () => {
    for (let episode = 0; episode < episodes; episode++) {
      const task = setup.tasks[episode % setup.tasks.length];
      const policy = createScriptedPolicy(setup.replies(task));
      await runEpisode({ task, benchmark: setup.benchmark, harness: setup.harness, policy, seed: episode });
    }
  };
  await environmentAlone();
  await throughHarness();
  const time = async (work) => {
    const started = performance.now();
    await work();
    return (performance.now() - started) / (episodes * stepsPer);
  };
  const alone = await time(environmentAlone);
  const harnessed = await time(throughHarness);
  console.log(`${setup.name}: ${episodes} episodes x ${stepsPer} steps`);
  console.log(`  environment alone        ${(alone * 1000).toFixed(1)} µs/step`);
  console.log(`  harness + environment    ${(harnessed * 1000).toFixed(1)} µs/step`);
  console.log(`  runtime overhead         ${((harnessed - alone) * 1000).toFixed(1)} µs/step`);
  console.log(`  ratio harness/environment ${(harnessed / alone).toFixed(2)}x`);
}

await measure(await lookupCase());
await measure(await dbbenchCase());
