export * from "./harness-hash.js";
export * from "./jsonl.js";
export * from "./parse-harness-config.js";
export * from "./spec/index.js";
export * from "./runtime/index.js";
export * from "./chat-policy/index.js";
