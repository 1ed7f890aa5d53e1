export * from "./harness-hash.js";
export * from "./parse-harness-config.js";
export * from "./spec/index.js";
