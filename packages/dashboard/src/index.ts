export * from "./dashboard-server.js";
export * from "./directory-reader.js";
export * from "./jsonl-tail.js";
export * from "./trajectory-summary.js";
export * from "./vendor-scripts.js";
