import type { ObservedAction } from "./read-view.js";

const updatePattern = /^\s*UPDATE\s+(`(?:[^`]|``)+`)\s+SET\s+(.+?)\s+WHERE\s+(.+?);?\s*$/is;
const assignmentPattern = /(`(?:[^`]|``)+`)\s*=\s*('(?:[^']|'')*'|[-\d.]+)/g;

/**
 * The SELECT that shows whether an UPDATE reached any rows. AgentBench's MySQL reply to an UPDATE is
 * `[]` whether or not its WHERE matched, so only a read afterwards tells. It selects the rows the WHERE
 * names; when the UPDATE sets a column its WHERE tests, those rows no longer match, so it selects the
 * rows holding the new values instead. Null for any other statement.
 */
export function changeCheckSql(sql: string): string | null {
  const match = updatePattern.exec(sql);
  if (match === null) return null;
  const [, table, setPart = "", where = ""] = match;
  const assignments = [...setPart.matchAll(assignmentPattern)].map(([, column = "", value = ""]) => ({
    column,
    value,
  }));
  if (assignments.length === 0) return null;
  const setsTestedColumn = assignments.some(({ column }) => where.includes(column));
  const condition = setsTestedColumn
    ? assignments.map(({ column, value }) => `${column} = ${value}`).join(" AND ")
    : where;
  return `SELECT * FROM ${table} WHERE ${condition};`;
}

/** What the change checks in a view showed about its UPDATEs. */
export interface ChangeChecks {
  /** UPDATEs whose check returned no rows: they changed nothing. */
  missed: Set<ObservedAction>;
  /** The last UPDATE when no check has followed it yet (null otherwise). */
  unchecked: ObservedAction | null;
  /** Lower-cased SQL of the read-backs that returned no rows. */
  missedReads: string[];
}

/** Reads which UPDATEs were checked by their `changeCheckSql` afterwards, and what the check returned. */
export function changeChecks(actions: readonly ObservedAction[]): ChangeChecks {
  const missed = new Set<ObservedAction>();
  const missedReads: string[] = [];
  let unchecked: ObservedAction | null = null;
  actions.forEach((action, index) => {
    if (action.kind !== "update" || action.isError || action.sql === null) return;
    const check = changeCheckSql(action.sql);
    const reading = actions.slice(index + 1).find((later) => later.sql !== null && later.sql === check);
    if (reading === undefined) unchecked = action;
    else {
      unchecked = null;
      if (reading.rows?.length === 0 && check !== null) {
        missed.add(action);
        missedReads.push(check.toLowerCase());
      }
    }
  });
  return { missed, unchecked, missedReads };
}
