export * from "./decision-walk.js";
export * from "./kind-steps.js";
export * from "./named-features.js";
export * from "./ordered-decision.js";
export * from "./staged-grammar.js";
export * from "./view-cache.js";
