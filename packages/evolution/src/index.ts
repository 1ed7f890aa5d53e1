// Failure analysis moved to @hs/failure-analysis (so the router and profiles reach it without
// evolution); re-exported here for compatibility.
export * from "@hs/failure-analysis";
export * from "./evolution-library.js";
export * from "./evolve.js";
export * from "./operators.js";
export * from "./pool-file.js";
export * from "./proposer.js";
export * from "./reroll-control.js";
export * from "./rescue-properties.js";
