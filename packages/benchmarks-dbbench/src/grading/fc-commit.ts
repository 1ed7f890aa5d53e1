import { parsePythonJson } from "../python/python-json.js";
import type { PythonValue } from "../python/python-value.js";
import { gradeFcValue, jsonToPython, type LabelCell, labelValue } from "./grade-answer.js";

/** What AgentBench FC does with a `commit_final_answer` call's arguments. */
export type FcCommit =
  | {
      /** The call commits a value. */
      ok: true;
      /** The first argument's value, whatever its name. */
      value: PythonValue;
    }
  | {
      /** The episode ends in a task error (reward 0), graded as a failure whatever the task type. */
      ok: false;
      /** Why AgentBench raises. */
      reason: string;
    };

function isTruthy(value: PythonValue): boolean {
  switch (value.kind) {
    case "none":
      return false;
    case "bool":
      return value.value;
    case "int":
      return value.value !== 0n;
    case "float":
      return value.value !== 0;
    case "decimal":
      return Number(value.text) !== 0;
    case "str":
    case "bytes":
      return value.value.length > 0;
    case "list":
    case "tuple":
    case "set":
      return value.items.length > 0;
    case "dict":
      return value.entries.length > 0;
  }
}

/**
 * AgentBench FC's reading of `commit_final_answer` (THUDM/AgentBench (main)
 * src/server/tasks/dbbench/task.py lines 172-176): `answer = list(arguments.values())[0]`, the first
 * argument's value whatever its name (`{}` raises IndexError); then a non-empty answer is logged with
 * `answer[:100]`, which raises TypeError unless it is a str or a list. Either exception reaches the
 * `except:` of line 242: TASK_ERROR, reward 0, for query and modification tasks alike.
 */
export function fcCommit(argumentsValue: PythonValue): FcCommit {
  if (argumentsValue.kind !== "dict") return { ok: false, reason: "the arguments are not a JSON object" };
  const first = argumentsValue.entries[0];
  if (first === undefined) return { ok: false, reason: "commit_final_answer has no argument (IndexError)" };
  const value = first[1];
  if (isTruthy(value) && value.kind !== "str" && value.kind !== "list") {
    return { ok: false, reason: `the answer is a ${value.kind}, which cannot be sliced (TypeError)` };
  }
  return { ok: true, value };
}

/** `fcCommit` of arguments as JavaScript received them (keys in the object's order). */
export function fcCommitOfArguments(argumentsRecord: Readonly<Record<string, unknown>>): FcCommit {
  return fcCommit(jsonToPython(argumentsRecord));
}

/**
 * AgentBench FC's verdict on a query task from a `commit_final_answer` call's arguments exactly as the
 * model sent them (JSON text): read as json.loads reads it, so a number keeps what Python makes of
 * its text (`1.0` is "1.0", `12345678901234567890` every digit), then the first-argument rule, then
 * `compare_results`. Arguments json.loads refuses are no commit at all (task.py lines 135-146).
 */
export function gradeFcToolArguments(argumentsJson: string, label: readonly LabelCell[]): boolean {
  const parsed = parsePythonJson(argumentsJson);
  if (parsed === undefined) return false;
  const commit = fcCommit(parsed);
  return commit.ok && gradeFcValue(commit.value, { kind: "list", items: label.map(labelValue) });
}

/**
 * `fcCommit` of a committed tool call: of its arguments' JSON text as the policy wrote it when there is
 * one (numbers keep their text, keys their order, as json.loads gives them), else of the parsed object.
 */
export function fcCommitOfCall(call: {
  arguments: Readonly<Record<string, unknown>>;
  argumentsText?: string;
}): FcCommit {
  if (call.argumentsText === undefined) return fcCommitOfArguments(call.arguments);
  const parsed = parsePythonJson(call.argumentsText);
  return parsed === undefined ? fcCommitOfArguments(call.arguments) : fcCommit(parsed);
}
