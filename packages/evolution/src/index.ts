export * from "./evolve.js";
export * from "./operators.js";
export * from "./pool-file.js";
export * from "./proposer.js";
export * from "./reroll-control.js";
export * from "./rescue-properties.js";
