import { benchmarkPlugin } from "./plugin.js";

export { createDbBench, type DbBench, type DbBenchOptions } from "./create-dbbench.js";
export {
  type DbBenchRecord,
  dbbenchRecordSchema,
  modificationTypes,
  recordCategory,
  recordTables,
} from "./data/dbbench-record.js";
export { parseRecords, recordToTask, taskMetadata } from "./data/load-records.js";
export type {
  DatabaseEngine,
  EpisodeDatabase,
  StatementLimits,
  StatementOutcome,
  TableSpec,
} from "./engines/database-engine.js";
export { createMysqlEngine, type MysqlEngineOptions } from "./engines/mysql-engine.js";
export { createSqliteEngine, type SqliteEngineOptions } from "./engines/sqlite-engine.js";
export { combineTableHashes, tableHashOfRows } from "./engines/table-hash.js";
export {
  DbBenchEnvironment,
  dbbenchTools,
  type ProtocolChoice,
  v02AnswerArgument,
  v02AnswerText,
} from "./environment.js";
export {
  dbbenchCheckPrompts,
  dbbenchEmptyResultNotes,
  dbbenchFixErrorSuffix,
  dbbenchHintPhrases,
  dbbenchLibrary,
} from "./evolution-library.js";
export { dbbenchConventions } from "./failure-conventions.js";
export { type FcCommit, fcCommit, gradeFcToolArguments } from "./grading/fc-commit.js";
export {
  cleanFcAnswer,
  type GradingProtocol,
  gradeFcAnswer,
  gradeV02Answer,
  hashFromAnswerMd5,
  type LabelCell,
} from "./grading/grade-answer.js";
export { dbbenchHarnessCallLibrary, filteredColumnPattern } from "./harness-call-directions.js";
export { observableCategory } from "./observable-category.js";
export { benchmarkPlugin } from "./plugin.js";
export { dbbenchPresets, fcPreset, fcSystemPrompt, v02InstructionPrompt, v02Preset } from "./presets.js";
export { pythonEval } from "./python/python-eval.js";
export { parsePythonJson } from "./python/python-json.js";
export {
  asciiDigits,
  type PythonValue,
  pythonFloatRepr,
  pythonList,
  pythonRepr,
  pythonStr,
  pythonStrip,
  pythonStrRepr,
} from "./python/python-value.js";
export { type EngineDiffReport, engineDiff } from "./replay/engine-diff.js";
export {
  type EmptyReplayCase,
  emptyReplay,
  type GoldReplayCase,
  type GoldReplayReport,
  goldReplay,
} from "./replay/gold-replay.js";
export { goldReplayReport } from "./replay/gold-replay-report.js";
export { mysqlToSqlite } from "./sql/mysql-to-sqlite.js";
export { queryTypes, summarizeOutcomes } from "./summarize.js";
export { parseResultRows, parseTableDescription } from "./view/read-view.js";

export default benchmarkPlugin;
