export * from "./capitals-benchmark.js";
export * from "./fault-plan.js";
export * from "./server-state.js";
export * from "./test-server.js";
export * from "./tiny-losses.js";
export * from "./tiny-model.js";
