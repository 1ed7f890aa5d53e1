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

/** A label cell as the record holds it (JSON). */
export type LabelCell = string | number | boolean | null;

/**
 * A label cell as Python's json.loads gives it: v0.2 compares the label list itself (`cor`), so a
 * label stored as the JSON number 12 is an int, not the string "12" (v0.2 __init__.py line 202,
 * `set(cor)`). A JSON number's own text (12.0 against 12) is lost by JSON.parse before it gets here.
 */
export function labelValue(cell: LabelCell): PythonValue {
  if (typeof cell === "string") return pyStr(cell);
  return jsonToPython(cell);
}

/**
 * AgentBench v0.2 query grading: the answer text (what follows `Final Answer:`) is `eval`ed and
 * turned into a list, falling back to a one-element list of the raw text; one element on each side
 * compares as floats when both parse (exactly), else as values; otherwise set equality.
 * Follows THUDM/AgentBench@v0.2 src/server/tasks/dbbench/__init__.py lines 189-206 (`metrics.factory.acc`):
 * `list(eval(ans))` (190), `float(ans[0]) == float(cor[0])` (195, `float(b'12')` is 12.0 and
 * `float('12\x1f')` raises), `ans[0] == cor[0]` (197), `set(cor) == set(ans)` (202-204).
 */
export function gradeV02Answer(answerText: string, label: readonly LabelCell[]): boolean {
  const evaluated = pythonEval(answerText);
  const asList = evaluated === undefined ? undefined : pythonList(evaluated);
  const answer: PythonValue[] = asList ?? [pyStr(answerText)];
  const correct = label.map(labelValue);
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

function cleanFcText(answer: string): string[] | undefined {
  const fromResult = cleanMysqlResult(answer);
  if (fromResult !== undefined) return fromResult.map((value) => normalizeFcValue(value));
  const text = pythonStrip(answer);
  if (!(text.startsWith("[") && text.endsWith("]"))) return [normalizeFcValue(stripValue(text))];
  const evaluated = pythonEval(text);
  if (evaluated !== undefined) return evaluated.kind === "list" ? evaluated.items.map(cleanItem) : undefined;
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

/**
 * AgentBench FC `_clean_answer` on a Python value: a list of normalised strings; undefined where
 * AgentBench's function returns None. Follows THUDM/AgentBench (main)
 * src/server/tasks/dbbench/result_processor.py lines 198-263.
 */
export function cleanFcValue(answer: PythonValue): string[] | undefined {
  if (answer.kind === "none") return ["0"];
  if (answer.kind === "str") return cleanFcText(answer.value);
  if (answer.kind === "list" || answer.kind === "tuple") return answer.items.map(cleanItem);
  return [normalizeFcValue(stripValue(pythonStr(answer)))];
}

/**
 * AgentBench FC `_clean_answer`: the answer (a list from the tool call, or text, as JSON values) as a
 * list of normalised strings; undefined where AgentBench's function returns None.
 */
export function cleanFcAnswer(answer: unknown): string[] | undefined {
  return cleanFcValue(jsonToPython(answer));
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
 * AgentBench FC query grading (`compare_results` for query types) on Python values: normalised
 * values; one value each: both "0" match, both numeric within 0.01, else exact text; several: all
 * numeric on both sides with equal counts matched one-to-one within 0.01, else set equality.
 * Follows THUDM/AgentBench (main) src/server/tasks/dbbench/result_processor.py lines 22-78.
 */
export function gradeFcValue(answer: PythonValue, label: PythonValue): boolean {
  const processedAnswer = cleanFcValue(answer);
  const processedLabel = cleanFcValue(label);
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

/** FC query grading of a committed JSON value against the record's label cells. */
export function gradeFcAnswer(answer: unknown, label: readonly LabelCell[]): boolean {
  return gradeFcValue(jsonToPython(answer), { kind: "list", items: label.map(labelValue) });
}

/** The AgentBench answer-md5 field (`[('hash',)]`) reduced to the hash text, or null for `[(None,)]`. */
export function hashFromAnswerMd5(answerMd5: string): string | null {
  const cleaned = cleanMysqlResult(pythonStrip(answerMd5));
  const value = cleaned?.[0];
  if (value === undefined || value === "None") return null;
  return value;
}
