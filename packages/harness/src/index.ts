export * from "./harness-hash.js";
export * from "./jsonl.js";
export * from "./parse-harness-config.js";
export * from "./spec/index.js";
export * from "./runtime/index.js";
