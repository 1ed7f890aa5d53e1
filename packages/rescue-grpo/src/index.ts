export * from "./advantages.js";
export * from "./aggregation.js";
export * from "./embedded-learner.js";
export * from "./evaluate.js";
export * from "./groups.js";
export * from "./surrogate.js";
export * from "./trainer.js";
export * from "./trainer-config.js";
