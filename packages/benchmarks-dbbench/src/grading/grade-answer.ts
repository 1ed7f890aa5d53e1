import { pythonEval } from "../python/python-eval.js";
import {
  type PythonValue,
  parsePythonFloat,
  pyNone,
  pyStr,
  pythonEquals,
  pythonFloat,
  pythonList,
  pythonSetEquals,
  pythonStr,
  pythonStrip,
} from "../python/python-value.js";

/** Which AgentBench grader decides an episode. */
export type GradingProtocol = "v0.2" | "fc";

/**
 * AgentBench v0.2 query grading: the answer text (what follows `Final Answer:`) is `eval`ed and
 * turned into a list, falling back to a one-element list of the raw text; one element on each side
 * compares as floats when both parse (exactly), else as values; otherwise set equality.
 * Follows THUDM/AgentBench@v0.2 src/server/tasks/dbbench/__init__.py (`metrics.factory.acc`).
 */
export function gradeV02Answer(answerText: string, label: readonly string[]): boolean {
  const evaluated = pythonEval(answerText);
  const asList = evaluated === undefined ? undefined : pythonList(evaluated);
  const answer: PythonValue[] = asList ?? [pyStr(answerText)];
  const correct = label.map(pyStr);
  if (answer.length === 1 && correct.length === 1) {
    const answerValue = answer[0] as PythonValue;
    const correctValue = correct[0] as PythonValue;
    const answerFloat = pythonFloat(answerValue);
    const correctFloat = pythonFloat(correctValue);
    if (answerFloat !== undefined && correctFloat !== undefined) return answerFloat === correctFloat;
    return pythonEquals(answerValue, correctValue);
  }
  return pythonSetEquals(answer, correct) ?? false;
}

const specialValues = new Set([
  "none",
  "null",
  "undefined",
  "nan",
  "inf",
  "infinity",
  "-inf",
  "-infinity",
  "",
]);

/** Python's `str.strip()` (whitespace) followed by `.strip("'\"")`. */
function stripValue(text: string): string {
  return pythonStrip(text).replace(/^['"]+|['"]+$/g, "");
}

/** AgentBench FC `_normalize_special_values`. */
export function normalizeFcValue(value: PythonValue | string): string {
  if (typeof value !== "string" && value.kind === "none") return "0";
  const text = pythonStrip(typeof value === "string" ? value : pythonStr(value));
  if (text.endsWith("%")) return pythonStrip(text.slice(0, -1));
  const withoutCommas =
    text.includes(",") && !text.startsWith("[") && !text.endsWith("]") ? text.replaceAll(",", "") : text;
  return specialValues.has(withoutCommas.toLowerCase()) ? "0" : withoutCommas;
}

function cleanItem(item: PythonValue): string {
  const inner = item.kind === "tuple" && item.items.length === 1 ? (item.items[0] as PythonValue) : item;
  return normalizeFcValue(stripValue(pythonStr(inner)));
}

function cleanMysqlResult(text: string): string[] | undefined {
  if (!(text.startsWith("[") && text.endsWith("]"))) return undefined;
  const parsed = pythonEval(text);
  if (parsed?.kind === "list" && parsed.items.every((item) => item.kind === "tuple")) {
    const values: string[] = [];
    for (const item of parsed.items) {
      if (item.kind === "tuple" && item.items.length === 1)
        values.push(stripValue(pythonStr(item.items[0] as PythonValue)));
    }
    return values;
  }
  const inner = text.replace(/^[[\]]+|[[\]]+$/g, "");
  if ((inner.match(/\(/g) ?? []).length === 1 && inner.startsWith("(") && inner.endsWith(",)")) {
    return [stripValue(inner.slice(1, -2))];
  }
  return undefined;
}

/**
 * AgentBench FC `_clean_answer`: the answer (a list from the tool call, or text) as a list of
 * normalised strings; undefined where AgentBench's function returns None.
 * Follows THUDM/AgentBench src/server/tasks/dbbench/result_processor.py.
 */
export function cleanFcAnswer(answer: unknown): string[] | undefined {
  if (answer === null || answer === undefined) return ["0"];
  if (typeof answer === "string") {
    const fromResult = cleanMysqlResult(answer);
    if (fromResult !== undefined) return fromResult.map((value) => normalizeFcValue(value));
    const text = pythonStrip(answer);
    if (!(text.startsWith("[") && text.endsWith("]"))) return [normalizeFcValue(stripValue(text))];
    const evaluated = pythonEval(text);
    if (evaluated !== undefined)
      return evaluated.kind === "list" ? evaluated.items.map(cleanItem) : undefined;
    const items: string[] = [];
    let current = "";
    let inQuotes = false;
    for (const character of text.slice(1, -1)) {
      if (character === '"' || character === "'") inQuotes = !inQuotes;
      else if (character === "," && !inQuotes) {
        if (current) {
          items.push(normalizeFcValue(stripValue(current)));
          current = "";
        }
      } else current += character;
    }
    if (current) items.push(normalizeFcValue(stripValue(current)));
    return items;
  }
  if (Array.isArray(answer)) return answer.map((item) => cleanItem(jsonToPython(item)));
  return [normalizeFcValue(stripValue(pythonStr(jsonToPython(answer))))];
}

/** A JSON value (a parsed tool-call argument) as Python's json.loads would give it. */
export function jsonToPython(value: unknown): PythonValue {
  if (value === null || value === undefined) return pyNone;
  if (typeof value === "string") return pyStr(value);
  if (typeof value === "boolean") return { kind: "bool", value };
  if (typeof value === "number") {
    return Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER
      ? { kind: "int", value: BigInt(value) }
      : { kind: "float", value };
  }
  if (Array.isArray(value)) return { kind: "list", items: value.map(jsonToPython) };
  if (typeof value === "object") {
    return {
      kind: "dict",
      entries: Object.entries(value as Record<string, unknown>).map(([key, item]) => [
        pyStr(key),
        jsonToPython(item),
      ]),
    };
  }
  return pyStr(String(value));
}

function isFloat(text: string): boolean {
  return parsePythonFloat(text) !== undefined;
}

function floatEqual(left: string, right: string): boolean {
  const a = parsePythonFloat(left);
  const b = parsePythonFloat(right);
  return a !== undefined && b !== undefined && Math.abs(a - b) <= 1e-2;
}

/**
 * AgentBench FC query grading (`compare_results` for query types): normalised values; one value
 * each: both "0" match, both numeric within 0.01, else exact text; several: all numeric on both
 * sides with equal counts matched one-to-one within 0.01, else set equality.
 * Follows THUDM/AgentBench src/server/tasks/dbbench/result_processor.py.
 */
export function gradeFcAnswer(answer: unknown, label: readonly string[]): boolean {
  const processedAnswer = cleanFcAnswer(answer);
  const processedLabel = cleanFcAnswer([...label]);
  if (processedAnswer === undefined || processedLabel === undefined) return false;
  if (processedAnswer.length === 1 && processedLabel.length === 1) {
    const answerValue = processedAnswer[0] as string;
    const labelValue = processedLabel[0] as string;
    if (answerValue === "0" && labelValue === "0") return true;
    if (isFloat(answerValue) && isFloat(labelValue)) return floatEqual(answerValue, labelValue);
    return answerValue === labelValue;
  }
  if (processedAnswer.every(isFloat) && processedLabel.every(isFloat)) {
    if (processedAnswer.length !== processedLabel.length) return false;
    const matched = processedLabel.map(() => false);
    for (const value of processedAnswer) {
      const index = processedLabel.findIndex(
        (candidate, position) => !matched[position] && floatEqual(value, candidate),
      );
      if (index < 0) return false;
      matched[index] = true;
    }
    return matched.every(Boolean);
  }
  const answerSet = new Set(processedAnswer);
  const labelSet = new Set(processedLabel);
  return answerSet.size === labelSet.size && [...answerSet].every((value) => labelSet.has(value));
}

/** The AgentBench answer-md5 field (`[('hash',)]`) reduced to the hash text, or null for `[(None,)]`. */
export function hashFromAnswerMd5(answerMd5: string): string | null {
  const cleaned = cleanMysqlResult(pythonStrip(answerMd5));
  const value = cleaned?.[0];
  if (value === undefined || value === "None") return null;
  return value;
}
