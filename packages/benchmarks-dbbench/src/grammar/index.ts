export * from "./dbbench-grammar.js";
export * from "./features.js";
export * from "./guidance.js";
export * from "./read-view.js";
export * from "./value-candidates.js";
