import { genericConventions } from "@hs/harness";
import {
  createCombinedRouter,
  createProfileRouter,
  createVotingRouter,
  defaultProfileJudges,
} from "@hs/router";
import type { BenchmarkV1, RouterV1 } from "@hs/spec";

/**
 * The default Harness-S router: the profile router (expected rescue from the failure-mode mix)
 * combined with a Borda vote of the profile judges (rescue matrix, observable-category success,
 * direction), both reading the benchmark's failure conventions.
 */
export function defaultRouter(benchmark: Pick<BenchmarkV1, "failureConventions">): RouterV1 {
  const conventions = benchmark.failureConventions ?? genericConventions;
  return createCombinedRouter({
    id: "harness-s",
    parts: [
      { router: createProfileRouter({ conventions }) },
      { router: createVotingRouter({ judges: defaultProfileJudges({ conventions }), aggregation: "borda" }) },
    ],
  });
}
