export {
  type AppWorld,
  type AppWorldOptions,
  createAppWorld,
  realSplits,
  summarizeAppWorld,
  taskFromInfo,
} from "./create-appworld.js";
export {
  type GroundTruthMetadata,
  groundTruthMetadataSchema,
  readGroundTruthAnswer,
  readGroundTruthMetadata,
  readGroundTruthSolution,
  readTaskSpecs,
  type TaskSpecs,
  taskDirectory,
  taskSpecsSchema,
} from "./dataset/appworld-data.js";
export {
  AppWorldEnvironment,
  type AppWorldEnvironmentOptions,
  appworldTools,
  executionFailedPrefix,
} from "./environment.js";
export { appworldLibrary } from "./evolution-library.js";
export { appworldConventions } from "./failure-conventions.js";
export {
  appworldHarnessCallLibrary,
  completeTaskPattern,
  lastApiCallPattern,
} from "./harness-call-directions.js";
export { parseTaskIds, type TaskIdLine } from "./load-task-ids.js";
export {
  type AppWorldMetrics,
  computeAppWorldMetrics,
  flattenMetrics,
  type GoalCompletion,
  scenarioOfTaskId,
  stripTaskTag,
  type TaskEvaluationRecord,
} from "./metrics/appworld-metrics.js";
export { pythonRound } from "./metrics/python-round.js";
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
export { EvaluationRecorder, evaluationFile } from "./real/evaluation-files.js";
export { ExperimentNames, newRunId } from "./real/experiment-names.js";
export { type GoldReplaySource, goldReplay, offlineGoldReplay } from "./replay/gold-replay.js";
export {
  UpstreamShapedServer,
  type UpstreamShapedServerOptions,
} from "./upstream-shaped/upstream-shaped-server.js";
export { allApiDocs, appDescriptions } from "./world/apps/registry.js";
export { OfflineAppWorldServer, type OfflineServerOptions } from "./world/offline-server.js";
export { OfflineWorld } from "./world/offline-world.js";
export {
  bwrapAvailable,
  PythonShell,
  type PythonShellOptions,
  type SandboxMode,
} from "./world/python-shell.js";
