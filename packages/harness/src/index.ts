export * from "./harness-hash.js";
export * from "./jsonl.js";
export * from "./observe.js";
export * from "./parse-harness-config.js";
export * from "./pool-entries.js";
export * from "./runtime/index.js";
export * from "./seeded-random.js";
export * from "./spec/index.js";
