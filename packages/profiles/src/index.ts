export * from "./behaviour-stats.js";
export * from "./build-profile.js";
export * from "./profile-file.js";
export * from "./profile-pool.js";
export * from "./reanchor.js";
