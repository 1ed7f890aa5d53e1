export * from "./embedded-learner.js";
export * from "./rescue-transfer.js";
