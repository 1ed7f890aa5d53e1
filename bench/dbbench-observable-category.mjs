// Agreement of @hs/benchmarks-dbbench observableCategory (inferred from the instruction the policy sees)
// with the dataset's `type` on the bundled splits: exact type, and coarse (INSERT / UPDATE / query).
// Build first: pnpm --filter @hs/benchmarks-dbbench build. Usage: node bench/dbbench-observable-category.mjs
import { createDbBench } from "../packages/benchmarks-dbbench/dist/index.js";

const benchmark = createDbBench();
const coarse = (category) => (category === "INSERT" || category === "UPDATE" ? category : "query");
for (const split of ["dev", "standard-a"]) {
  const { tasks } = await benchmark.loadTasks({ split });
  let exact = 0;
  let kind = 0;
  for (const task of tasks) {
    const inferred = benchmark.observableCategory(task);
    if (inferred === task.category) exact++;
    if (coarse(inferred) === coarse(task.category)) kind++;
  }
  const share = (count) => `${count}/${tasks.length} (${((100 * count) / tasks.length).toFixed(1)}%)`;
  console.log(`${split}: exact type ${share(exact)}, INSERT/UPDATE/query ${share(kind)}`);
}
await benchmark.close();
