// The Tinker test server's toy benchmark as an hs plugin, for the test of `hs train --policy tinker:...`.
import { createCapitalsBenchmark } from "@hs/tinker/test-server";

export const benchmarkPlugin = {
  specificationVersion: "v1",
  id: "capitals",
  description: "the Tinker test server's toy capitals benchmark",
  options: {},
  async createBenchmark() {
    return createCapitalsBenchmark();
  },
};
