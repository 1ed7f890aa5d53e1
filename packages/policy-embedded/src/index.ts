export * from "./backend.js";
export * from "./decision-network.js";
export * from "./decision-rows.js";
export * from "./embedded-policy.js";
