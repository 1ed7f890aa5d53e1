export * from "./benchmark-conformance.js";
export * from "./conformance-check.js";
export * from "./plugin-checks.js";
export * from "./probe-episode.js";
