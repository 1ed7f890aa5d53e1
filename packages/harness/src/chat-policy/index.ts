export * from "./abortable-sleep.js";
export * from "./chat-policy.js";
export * from "./chat-policy-options.js";
export * from "./concurrency-limiter.js";
export * from "./parse-completion.js";
export * from "./retry-after.js";
export * from "./wire-format.js";
