import type { Row, WorldDatabase } from "./database.js";

/** How one table changed. */
export interface TableDiff {
  /** Added rows without their ids, as canonical JSON, sorted. */
  added: string[];
  /** Ids of removed rows, sorted. */
  removed: number[];
  /** Changed fields per kept row id: `id -> field -> new value`, as canonical JSON. */
  updated: Record<string, string>;
}

/** How a database changed: only tables with a change. */
export type DatabaseDiff = Record<string, TableDiff>;

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([left], [right]) =>
      left.localeCompare(right),
    );
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function changedFields(before: Row, after: Row): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (canonical(before[key]) !== canonical(after[key])) changes[key] = after[key] ?? null;
  }
  return changes;
}

function tableDiff(before: readonly Row[], after: readonly Row[]): TableDiff | null {
  const beforeById = new Map(before.map((row) => [row.id, row]));
  const afterIds = new Set(after.map((row) => row.id));
  const added: string[] = [];
  const updated: Record<string, string> = {};
  for (const row of after) {
    const old = beforeById.get(row.id);
    if (old === undefined) {
      const { id: _id, ...content } = row;
      added.push(canonical(content));
      continue;
    }
    const changes = changedFields(old, row);
    if (Object.keys(changes).length > 0) updated[String(row.id)] = canonical(changes);
  }
  const removed = before.filter((row) => !afterIds.has(row.id)).map((row) => row.id);
  if (added.length === 0 && removed.length === 0 && Object.keys(updated).length === 0) return null;
  return { added: added.sort(), removed: removed.sort((left, right) => left - right), updated };
}

/**
 * The difference between two states of a world, table by table: rows added (compared by content, as
 * new ids depend on the order of calls), rows removed and fields updated (by id). AppWorld's checks are
 * likewise stated on the database difference of the task's world.
 */
export function diffDatabases(before: WorldDatabase, after: WorldDatabase): DatabaseDiff {
  const diff: DatabaseDiff = {};
  for (const table of Object.keys(after.tables)) {
    const change = tableDiff(before.tables[table] ?? [], after.tables[table] ?? []);
    if (change !== null) diff[table] = change;
  }
  return diff;
}

/** Whether two table diffs are the same. */
export function sameTableDiff(left: TableDiff | undefined, right: TableDiff | undefined): boolean {
  return canonical(left ?? null) === canonical(right ?? null);
}
