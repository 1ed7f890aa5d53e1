import type { ToolCall } from "@hs/spec";

const identifier = "`([^`]+)`";
const limit = "(?:\\s+LIMIT\\s+\\d+)?\\s*;?\\s*$";
const distinct = new RegExp(`^\\s*SELECT\\s+DISTINCT\\s+${identifier}\\s+FROM\\s+${identifier}${limit}`, "i");
const preview = new RegExp(`^\\s*SELECT\\s+\\*\\s+FROM\\s+${identifier}${limit}`, "i");
const filteredRows = new RegExp(`^\\s*SELECT\\s+\\*\\s+FROM\\s+${identifier}\\s+WHERE\\s`, "i");

/**
 * The grammar's decisions for a harness call's SQL: the distinct values of a column, a preview of the
 * table, or the rows of a WHERE (a check's read-back of the last UPDATE, which the grammar writes as its
 * own read-back). Any other statement (a check re-running the policy's SELECT) is none of them.
 */
export function dbBenchCallLabels(call: ToolCall): string[][] {
  const query = call.arguments.query;
  if (call.name !== "execute_sql" || typeof query !== "string") return [];
  const column = distinct.exec(query)?.[1];
  if (column !== undefined) return [["kind:explore", `column:${column}`]];
  if (preview.test(query)) return [["kind:explore", "column:*"]];
  if (filteredRows.test(query)) return [["kind:explore", "change:last"]];
  return [];
}
