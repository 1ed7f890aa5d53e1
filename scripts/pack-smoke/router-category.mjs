import { createLookupBenchmark, lookupPool } from "@hs/harness/test-environments";
import { createCategoryRouter } from "@hs/router-category";

const [task] = (await createLookupBenchmark().loadTasks({})).tasks;
const decision = await createCategoryRouter().route({
  task,
  failedGroup: [],
  pool: lookupPool,
  profiles: null,
  k: 1,
  seed: 0,
});
console.log(`category router picked ${decision.selected.join(", ")}`);
