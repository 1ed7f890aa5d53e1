import { pythonEval } from "../python/python-eval.js";
import { pythonList, pythonStr } from "../python/python-value.js";

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
 * Reads a rendered `execute_sql` result (AgentBench's raw MySQL reply `[('x', 1), ...]`) back into rows
 * of cell texts (Python `str` of each cell; `None` for NULL; a bare value or a list as a row of one or
 * many cells). A harness note on the lines after the reply is ignored; a reply cut by the harness (v0.2's
 * 800 characters + `[TRUNCATED]`) keeps the whole rows before the cut. Undefined for an error text or
 * anything else that is not such a list. The one reader of results for the adapter and the grammar.
 */
export function parseResultRows(text: string): string[][] | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("[")) return undefined;
  // a harness note may follow the reply on its own line (`[]` + "No rows matched ...")
  const firstLine = trimmed.split("\n", 1)[0] ?? trimmed;
  let value = pythonEval(trimmed) ?? (firstLine === trimmed ? undefined : pythonEval(firstLine));
  if (value === undefined) {
    const lastRow = trimmed.lastIndexOf("), (");
    if (lastRow < 0) return undefined;
    value = pythonEval(`${trimmed.slice(0, lastRow + 1)}]`);
    if (value === undefined) return undefined;
  }
  const rows = pythonList(value);
  if (rows === undefined) return undefined;
  return rows.map((row) =>
    row.kind === "tuple" || row.kind === "list" ? row.items.map(pythonStr) : [pythonStr(row)],
  );
}
