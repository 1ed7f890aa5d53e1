import { grammarTuning } from "./features.js";

/** Renders an identifier for MySQL. */
export function quoteIdentifier(name: string): string {
  return `\`${name.replaceAll("`", "``")}\``;
}

/** Renders a string literal for MySQL. */
export function quoteString(value: string): string {
  return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

/** A value as a numeric literal (thousands commas and a trailing % dropped), null when it is not a number. */
export function numericLiteral(value: string): string | null {
  const plain = value.replaceAll(",", "").replace(/%$/, "");
  return /^-?\d+(\.\d+)?$/.test(plain) ? plain : null;
}

/** Whether SQL only looks at the data (a preview or the distinct values of a column, no filter). */
export function isExplore(sql: string | null): boolean {
  return sql !== null && /^\s*select\s+(distinct\b|\*\s+from)/i.test(sql) && !/\bwhere\b/i.test(sql);
}

/** The SQL of an explore: a preview of the table (`*`) or the distinct values of one column. */
export function exploreSql(table: string, target: string): string {
  return target === "*"
    ? `SELECT * FROM ${quoteIdentifier(table)} LIMIT ${grammarTuning.previewRows};`
    : `SELECT DISTINCT ${quoteIdentifier(target)} FROM ${quoteIdentifier(table)} LIMIT ${grammarTuning.distinctRows};`;
}
