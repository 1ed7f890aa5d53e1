export * from "./drill-benchmarks.js";
export * from "./faulty-worker.js";
