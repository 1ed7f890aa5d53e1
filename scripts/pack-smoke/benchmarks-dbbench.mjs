import { createDbBench } from "@hs/benchmarks-dbbench";

const benchmark = createDbBench();
const { tasks } = await benchmark.loadTasks({ split: "dev" });
const environment = await benchmark.createEnvironment(tasks[0], { seed: 0 });
await environment.reset();
const result = await environment.step({ id: "1", name: "execute_sql", arguments: { sql: "SELECT 1" } });
await environment.close();
await benchmark.close();
console.log(`dbbench: ${tasks.length} dev tasks; SELECT 1 -> ${result.content}`);
