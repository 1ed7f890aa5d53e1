/** A value as SQLite hands it to a JavaScript function (safe integers on). */
export type SqlValue = string | number | bigint | null | Uint8Array;

/**
 * The weight string of a text under a case- and accent-insensitive collation (MySQL 8's default
 * utf8mb4_0900_ai_ci, MariaDB's utf8mb4_general_ci): accents dropped, letters upper-cased, ß as S,
 * trailing spaces ignored (PAD SPACE).
 */
export function collationKey(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .replace(/ß/g, "s")
    .toUpperCase()
    .replace(/ +$/, "");
}

/** Compares two texts by the collation: -1, 0 or 1. */
export function compareText(left: string, right: string): number {
  const a = collationKey(left);
  const b = collationKey(right);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** MySQL's string-to-number rule: the leading numeric part counts (`'12,000'` is 12, `'abc'` is 0). */
export function mysqlToNumber(value: SqlValue): number | null {
  if (value === null) return null;
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  const text = typeof value === "string" ? value : Buffer.from(value).toString("utf8");
  const match = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(text);
  return match ? Number(match[0].trim()) : 0;
}

function asText(value: SqlValue): string {
  if (typeof value === "string") return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString("utf8");
  return String(value);
}

function isNumeric(value: SqlValue): value is number | bigint {
  return typeof value === "number" || typeof value === "bigint";
}

/**
 * MySQL's comparison of two values: NULL when either is NULL; texts by the collation; otherwise
 * both as numbers (a text by its leading numeric part).
 */
export function mysqlCompare(left: SqlValue, right: SqlValue): number | null {
  if (left === null || right === null) return null;
  if (isNumeric(left) || isNumeric(right)) {
    if (typeof left === "bigint" && typeof right === "bigint")
      return left < right ? -1 : left > right ? 1 : 0;
    const a = mysqlToNumber(left) as number;
    const b = mysqlToNumber(right) as number;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return compareText(asText(left), asText(right));
}

function likeToRegExp(pattern: string, escapeCharacter: string): RegExp {
  let source = "";
  const characters = [...collationKeyKeepingSpaces(pattern)];
  const escapeKey = escapeCharacter === "" ? "" : collationKeyKeepingSpaces(escapeCharacter);
  for (let index = 0; index < characters.length; index += 1) {
    const character = characters[index] as string;
    if (escapeKey !== "" && character === escapeKey && index + 1 < characters.length) {
      index += 1;
      source += (characters[index] as string).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    } else if (character === "%") source += "[\\s\\S]*";
    else if (character === "_") source += "[\\s\\S]";
    else source += character.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "u");
}

function collationKeyKeepingSpaces(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .replace(/ß/g, "s")
    .toUpperCase();
}

const likeCache = new Map<string, RegExp>();

/** MySQL's `value LIKE pattern [ESCAPE e]` under the collation (`\` escapes by default). */
export function mysqlLike(
  pattern: SqlValue,
  value: SqlValue,
  escapeCharacter: SqlValue = "\\",
): number | null {
  if (pattern === null || value === null || escapeCharacter === null) return null;
  const patternText = asText(pattern);
  const escapeText = asText(escapeCharacter);
  const key = `${escapeText}\u0000${patternText}`;
  let expression = likeCache.get(key);
  if (expression === undefined) {
    expression = likeToRegExp(patternText, escapeText);
    if (likeCache.size > 2000) likeCache.clear();
    likeCache.set(key, expression);
  }
  return expression.test(collationKeyKeepingSpaces(asText(value))) ? 1 : 0;
}

/** MySQL's `value REGEXP pattern` (case-insensitive under a _ci collation). */
export function mysqlRegexp(value: SqlValue, pattern: SqlValue): number | null {
  if (value === null || pattern === null) return null;
  try {
    return new RegExp(asText(pattern), "iu").test(asText(value)) ? 1 : 0;
  } catch (error) {
    throw new Error(`Got error '${error instanceof Error ? error.message : String(error)}' from regexp`);
  }
}

/** MySQL's `value IN (list)`: true on a match, NULL when no match and a NULL took part. */
export function mysqlIn(value: SqlValue, ...list: SqlValue[]): number | null {
  if (value === null) return null;
  let sawNull = false;
  for (const candidate of list) {
    const result = mysqlCompare(value, candidate);
    if (result === null) sawNull = true;
    else if (result === 0) return 1;
  }
  return sawNull ? null : 0;
}

/** MySQL's `value BETWEEN low AND high`. */
export function mysqlBetween(value: SqlValue, low: SqlValue, high: SqlValue): number | null {
  const lower = mysqlCompare(value, low);
  const upper = mysqlCompare(value, high);
  if (lower !== null && lower < 0) return 0;
  if (upper !== null && upper > 0) return 0;
  if (lower === null || upper === null) return null;
  return 1;
}

/**
 * Thrown when an UPDATE compares a TEXT value that is not a whole number with a number: MySQL/MariaDB
 * in strict mode (STRICT_TRANS_TABLES, the default AgentBench runs with; see `agentBenchSqlMode`) turn
 * the truncation warning into error 1292 for UPDATE, where SELECT and DELETE only warn.
 */
export class TruncatedValueError extends Error {
  override readonly name = "TruncatedValueError";
  constructor(
    /** The text that is not a number. */
    readonly text: string,
    /** The type it was converted to, as MariaDB names it: DECIMAL against an integer, DOUBLE otherwise. */
    readonly targetType: "DECIMAL" | "DOUBLE",
  ) {
    super(`Truncated incorrect ${targetType} value: '${text}'`);
  }
}

// a whole number as MariaDB reads one without a warning that strict mode makes an error: leading
// spaces, sign, digits, decimal part, exponent; trailing spaces only warn (measured on MariaDB 10.11)
const wholeNumberText = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/** In strict comparisons: throws `TruncatedValueError` when a text that is not a number meets a number. */
export function checkStrictComparison(left: SqlValue, right: SqlValue): void {
  if (left === null || right === null) return;
  const leftNumeric = isNumeric(left);
  const rightNumeric = isNumeric(right);
  if (leftNumeric === rightNumeric) return;
  const text = asText(leftNumeric ? right : left);
  if (wholeNumberText.test(text)) return;
  const number = (leftNumeric ? left : right) as number | bigint;
  throw new TruncatedValueError(
    text,
    typeof number === "bigint" || Number.isInteger(number) ? "DECIMAL" : "DOUBLE",
  );
}

export { asText as sqlValueText };
