export * from "./benchmark-conformance.js";
export * from "./conformance-check.js";
export * from "./probe-episode.js";
