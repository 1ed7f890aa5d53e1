import type { BenchmarkV1 } from "@hs/spec";
import type { DbBenchRecord } from "./data/dbbench-record.js";

/** Private access to the records behind tasks, for gold replay and engine comparison inside this package. */
export const recordsOf = new WeakMap<BenchmarkV1, (taskId: string) => DbBenchRecord | undefined>();
