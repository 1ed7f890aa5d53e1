export * from "./chat-server.js";
export * from "./lookup-benchmark.js";
export * from "./lookup-grammar.js";
export * from "./lookup-pool.js";
export * from "./lookup-sensitive-policy.js";
export * from "./remote-benchmark.js";
export * from "./scripted-policy.js";
export * from "./workspace-benchmark.js";
