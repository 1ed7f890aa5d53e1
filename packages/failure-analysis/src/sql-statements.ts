/** One `column op value` comparison of a WHERE clause. */
export interface SqlCondition {
  /** Column name, without backticks. */
  column: string;
  /** Comparison operator. */
  operator: string;
  /** The literal compared with, unquoted. */
  value: string;
}

/** What one SQL statement reads or writes, as far as failure rules need it. */
export interface SqlStatement {
  /** Statement kind. */
  kind: "select" | "insert" | "update" | "delete" | "other";
  /** For `SELECT DISTINCT col`: the column listed. */
  distinctColumn?: string;
  /** Values written: INSERT (column, value) pairs, UPDATE SET assignments. */
  writes: { column: string; value: string }[];
  /** WHERE comparisons. */
  conditions: SqlCondition[];
}

const literal = String.raw`'((?:[^']|'')*)'|"((?:[^"]|"")*)"|(-?\d+(?:\.\d+)?)`;
const identifier = String.raw`\x60([^\x60]+)\x60|(\w+)`;

function unquote(match: RegExpMatchArray, offset: number): string {
  const single = match[offset];
  if (single !== undefined) return single.replace(/''/g, "'");
  const double = match[offset + 1];
  if (double !== undefined) return double.replace(/""/g, '"');
  return match[offset + 2] ?? "";
}

function conditionsOf(where: string): SqlCondition[] {
  const pattern = new RegExp(`(?:${identifier})\\s*(<=|>=|!=|<>|=|<|>|\\blike\\b)\\s*(?:${literal})`, "gi");
  return [...where.matchAll(pattern)].map((match) => ({
    column: match[1] ?? match[2] ?? "",
    operator: (match[3] ?? "").toLowerCase(),
    value: unquote(match, 4),
  }));
}

function listOf(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) => match[1] ?? match[2] ?? unquote(match, 1));
}

function insertWrites(statement: string): SqlStatement["writes"] {
  const shape = /\(([^()]*(?:\([^()]*\)[^()]*)*)\)\s*values\s*\(([\s\S]*)\)\s*;?\s*$/i.exec(statement);
  if (shape === null) return [];
  const columns = listOf(shape[1] ?? "", new RegExp(identifier, "g"));
  const values = [...(shape[2] ?? "").matchAll(new RegExp(literal, "g"))].map((match) => unquote(match, 1));
  return columns.map((column, index) => ({ column, value: values[index] ?? "" }));
}

function updateWrites(statement: string): SqlStatement["writes"] {
  const set = /\bset\b([\s\S]*?)(?:\bwhere\b|;?\s*$)/i.exec(statement)?.[1] ?? "";
  const pattern = new RegExp(`(?:${identifier})\\s*=\\s*(?:${literal})`, "g");
  return [...set.matchAll(pattern)].map((match) => ({
    column: match[1] ?? match[2] ?? "",
    value: unquote(match, 3),
  }));
}

/** Reads one SQL statement (the dialect of MySQL-style agent queries; unknown shapes give `other`). */
export function readSqlStatement(text: string): SqlStatement {
  const statement = text.trim();
  const where =
    /\bwhere\b([\s\S]*?)(?:\border\s+by\b|\bgroup\s+by\b|\blimit\b|;|$)/i.exec(statement)?.[1] ?? "";
  const conditions = conditionsOf(where);
  const head = /^\s*(\w+)/.exec(statement)?.[1]?.toLowerCase();
  if (head === "select") {
    const distinct = new RegExp(`^\\s*select\\s+distinct\\s+(?:${identifier})\\s+from\\b`, "i").exec(
      statement,
    );
    const distinctColumn = distinct === null ? undefined : (distinct[1] ?? distinct[2]);
    return {
      kind: "select",
      ...(distinctColumn === undefined ? {} : { distinctColumn }),
      writes: [],
      conditions,
    };
  }
  if (head === "insert" || head === "replace")
    return { kind: "insert", writes: insertWrites(statement), conditions };
  if (head === "update") return { kind: "update", writes: updateWrites(statement), conditions };
  if (head === "delete") return { kind: "delete", writes: [], conditions };
  return { kind: "other", writes: [], conditions };
}

/** The string cells of a printed result (Python `str()` of fetched rows: `[('a',), ("b's",)]`). */
export function resultCells(content: string): string[] {
  return [...content.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map(
    (match) => match[1] ?? match[2] ?? "",
  );
}
