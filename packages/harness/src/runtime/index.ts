export * from "./action-format-middleware.js";
export * from "./context-middleware.js";
export * from "./error-recovery-middleware.js";
export * from "./prompt-middleware.js";
export * from "./run-episode.js";
export * from "./template.js";
export * from "./tool-exposure-middleware.js";
export * from "./verification-middleware.js";
