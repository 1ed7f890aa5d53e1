import { z } from "zod";
import type { TableSpec } from "../engines/database-engine.js";

const cellSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** One table of an AgentBench DBBench record. */
export const dbbenchTableSchema = z.object({
  /** Table name. */
  table_name: z.string().min(1).max(64),
  /** Columns and rows. */
  table_info: z.object({
    /** Columns (AgentBench creates every column as TEXT whatever `type` says). */
    columns: z
      .array(z.object({ name: z.string().min(1).max(64), type: z.string().optional() }))
      .min(1)
      .superRefine((columns, context) => {
        const seen = new Set<string>();
        columns.forEach((column, index) => {
          const key = column.name.toLowerCase();
          if (seen.has(key)) {
            context.addIssue({ code: "custom", path: [index, "name"], message: `duplicate column name "${column.name}"` });
          }
          seen.add(key);
        });
      }),
    /** Rows, one cell per column. */
    rows: z.array(z.array(cellSchema)),
  }),
});

/**
 * One AgentBench DBBench record (v0.2 layout: one `table` object; the current layout also allows a
 * list of tables and an `evidence` field). Extra fields are kept.
 */
export const dbbenchRecordSchema = z
  .looseObject({
    /** The question or instruction. */
    description: z.string(),
    /** Table information appended to the question. */
    add_description: z.string().default(""),
    /** Evidence shown before the question (current layout). */
    evidence: z.string().optional(),
    /** Task type; `type[0]` is the category. */
    type: z.union([z.string().min(1).transform((value) => [value]), z.array(z.string().min(1)).min(1)]),
    /** Query answers, or the reference SQL for INSERT/UPDATE/DELETE. */
    label: z.array(cellSchema).default([]),
    /** `[('hash',)]` of the expected table for INSERT/UPDATE/DELETE. */
    answer_md5: z.string().optional(),
    /** The dataset's own SQL for query types (often invalid; information only). */
    sql: z.looseObject({ query: z.string() }).optional(),
    /** The table or tables. */
    table: z.union([dbbenchTableSchema, z.array(dbbenchTableSchema).min(1)], {
      error: (issue) =>
        issue.input === undefined
          ? "missing: expected a table object (table_name, table_info) or a list of them"
          : "expected a table object (table_name, table_info) or a list of them",
    }),
  })
  .superRefine((record, context) => {
    const tables = Array.isArray(record.table) ? record.table : [record.table];
    tables.forEach((table, tableIndex) => {
      const width = table.table_info.columns.length;
      table.table_info.rows.forEach((row, rowIndex) => {
        if (row.length !== width) {
          const path = Array.isArray(record.table) ? ["table", tableIndex] : ["table"];
          context.addIssue({
            code: "custom",
            path: [...path, "table_info", "rows", rowIndex],
            message: `row has ${row.length} cells, the table has ${width} columns`,
          });
        }
      });
    });
  });

/** One validated DBBench record. */
export type DbBenchRecord = z.infer<typeof dbbenchRecordSchema>;

/** Modification types graded by the table hash. */
export const modificationTypes: ReadonlySet<string> = new Set(["INSERT", "UPDATE", "DELETE"]);

/** The record's category (`type[0]`). */
export function recordCategory(record: DbBenchRecord): string {
  return record.type[0] as string;
}

function cellText(cell: string | number | boolean | null): string | null {
  if (cell === null) return null;
  if (typeof cell === "boolean") return cell ? "True" : "False";
  return String(cell);
}

/** The record's tables with cells as AgentBench inserts them (`str(col)`; null stays NULL). */
export function recordTables(record: DbBenchRecord): TableSpec[] {
  const tables = Array.isArray(record.table) ? record.table : [record.table];
  return tables.map((table) => ({
    name: table.table_name,
    columns: table.table_info.columns.map((column) => column.name),
    rows: table.table_info.rows.map((row) => row.map(cellText)),
  }));
}

/** The label cells as strings. */
export function recordLabel(record: DbBenchRecord): string[] {
  return record.label.map((cell) => cellText(cell) ?? "None");
}
