export * from "./bubblewrap.js";
export * from "./prepared-etc.js";
export * from "./rlimit-command.js";
export * from "./sandbox-environment.js";
export * from "./stale-process-directories.js";
export * from "./workspace-cgroup.js";
