export * from "./embedded-learner.js";
export * from "./harness-call-credit.js";
export * from "./rescue-transfer.js";
