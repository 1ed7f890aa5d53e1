export * from "./embedded-learner.js";
