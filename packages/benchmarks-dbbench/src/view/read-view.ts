import { pythonEval } from "../python/python-eval.js";
import { pythonStr } from "../python/python-value.js";

/**
 * Reads the table name and headers from AgentBench's table description as it appears in the
 * rendered prompt ("The name of this table is NAME, and the headers of this table are A,B,C.").
 * Headers are split on commas, as the text gives them. Undefined when the text has no description.
 */
export function parseTableDescription(text: string): { tableName: string; headers: string[] } | undefined {
  const match = /The name of this table is (.+?), and the headers of this table are (.*?)\.?\s*$/m.exec(text);
  if (!match) return undefined;
  return {
    tableName: match[1] as string,
    headers: (match[2] as string).split(",").map((header) => header.trim()),
  };
}

/**
 * Reads a rendered `execute_sql` result (`[('x', 1), ...]`) back into rows of cell texts (Python
 * `str` of each cell; `None` for NULL). Undefined for an error text or a cut (truncated) result.
 */
export function parseResultRows(text: string): string[][] | undefined {
  const value = pythonEval(text);
  if (value?.kind !== "list") return undefined;
  const rows: string[][] = [];
  for (const row of value.items) {
    if (row.kind !== "tuple") return undefined;
    rows.push(row.items.map(pythonStr));
  }
  return rows;
}
