export {
  type AppWorld,
  type AppWorldOptions,
  createAppWorld,
  realSplits,
  summarizeAppWorld,
  taskFromInfo,
} from "./create-appworld.js";
export {
  AppWorldEnvironment,
  type AppWorldEnvironmentOptions,
  appworldTools,
  executionFailedPrefix,
} from "./environment.js";
export { appworldLibrary } from "./evolution-library.js";
export { appworldConventions } from "./failure-conventions.js";
export { parseTaskIds, type TaskIdLine } from "./load-task-ids.js";
export {
  type AppWorldMetrics,
  computeAppWorldMetrics,
  flattenMetrics,
  type GoalCompletion,
  scenarioOfTaskId,
  type TaskEvaluationRecord,
} from "./metrics/appworld-metrics.js";
export { benchmarkPlugin, benchmarkPlugin as default } from "./plugin.js";
export {
  appworldPresets,
  executeToolName,
  notShownMarker,
  reactInstructions,
  reactPreset,
  restNotShownMarker,
  taskTemplate,
  verlAgentPreset,
  verlHistoryChars,
  verlHistoryPairs,
} from "./presets.js";
export { AppWorldClient, type AppWorldClientOptions } from "./protocol/appworld-client.js";
export * from "./protocol/schemas.js";
export { type ServerLease, ServerPool } from "./protocol/server-pool.js";
export { offlineGoldReplay } from "./replay/gold-replay.js";
export { allApiDocs, appDescriptions } from "./world/apps/registry.js";
export { OfflineAppWorldServer, type OfflineServerOptions } from "./world/offline-server.js";
export { OfflineWorld } from "./world/offline-world.js";
export {
  bwrapAvailable,
  PythonShell,
  type PythonShellOptions,
  type SandboxMode,
} from "./world/python-shell.js";
