export * from "./embedded-learner.js";
export * from "./harness-call-credit.js";
export * from "./replay-action.js";
export * from "./rescue-transfer.js";
