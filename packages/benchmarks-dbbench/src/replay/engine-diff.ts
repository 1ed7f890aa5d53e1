import type { LoadTasksOptions } from "@hs/spec";
import type { DbBench } from "../create-dbbench.js";
import { type DbBenchRecord, modificationTypes, recordLabel, recordTables } from "../data/dbbench-record.js";
import type { DatabaseEngine, StatementOutcome, TableSpec } from "../engines/database-engine.js";
import { pythonRepr } from "../python/python-value.js";
import { recordsOf } from "../records-of.js";

/** One statement that the engines answered differently. */
export interface EngineDisagreement {
  /** Task whose table it ran on. */
  taskId: string;
  /** The statement. */
  sql: string;
  /** Reference engine's result (or table hash after a modification). */
  reference: string;
  /** Candidate engine's result. */
  candidate: string;
}

/** The result of an engine comparison. */
export interface EngineDiffReport {
  /** Reference engine (MySQL/MariaDB). */
  reference: string;
  /** Candidate engine (SQLite). */
  candidate: string;
  /** Statements run on both. */
  statements: number;
  /** Statements with the same result (and the same table hash after modifications). */
  agreed: number;
  /** `agreed / statements`. */
  agreement: number;
  /** Every disagreement. */
  disagreements: EngineDisagreement[];
}

function quote(name: string): string {
  return `\`${name.replaceAll("`", "``")}\``;
}

function literal(value: string): string {
  return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

/**
 * A deterministic set of queries over a table: filters (equality with a case-changed value, text
 * ranges, numeric comparisons, IN, BETWEEN), LIKE, aggregates (COUNT, SUM, AVG, MIN, MAX), orderings
 * and DISTINCT, on every column.
 */
export function generatedQueries(table: TableSpec): string[] {
  const t = quote(table.name);
  const queries = [`SELECT COUNT(*) FROM ${t}`];
  table.columns.forEach((column, columnIndex) => {
    const c = quote(column);
    const values = table.rows
      .map((row) => row[columnIndex])
      .filter((value): value is string => value !== null && value !== undefined);
    const sample = values[(columnIndex * 7) % Math.max(1, values.length)] ?? "";
    const numbers = values
      .map((value) => Number.parseFloat(value.replace(/^\s+/, "")))
      .filter((value) => Number.isFinite(value));
    const middle =
      numbers.length > 0 ? ([...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] ?? 0) : 10;
    const word = sample.split(/\s+/).find((part) => part.length >= 3) ?? sample;
    queries.push(
      `SELECT MAX(${c}), MIN(${c}) FROM ${t}`,
      `SELECT SUM(${c}), AVG(${c}) FROM ${t}`,
      `SELECT COUNT(DISTINCT ${c}) FROM ${t}`,
      `SELECT COUNT(*) FROM ${t} WHERE ${c} = ${literal(sample.toUpperCase())}`,
      `SELECT COUNT(*) FROM ${t} WHERE ${c} = ${literal(sample)}`,
      `SELECT COUNT(*) FROM ${t} WHERE ${c} > ${middle}`,
      `SELECT COUNT(*) FROM ${t} WHERE ${c} <= ${middle}`,
      `SELECT COUNT(*) FROM ${t} WHERE ${c} < ${literal(sample)}`,
      `SELECT COUNT(*) FROM ${t} WHERE ${c} LIKE ${literal(`%${word.toLowerCase().slice(0, 4)}%`)}`,
      `SELECT COUNT(*) FROM ${t} WHERE ${c} IN (${literal(sample)}, ${literal(values[0] ?? "")})`,
      `SELECT COUNT(*) FROM ${t} WHERE ${c} BETWEEN ${Math.floor(middle / 2)} AND ${middle}`,
      `SELECT ${c} FROM ${t} WHERE ${c} LIKE ${literal(`${sample.slice(0, 2)}%`)}`,
      `SELECT COUNT(*) FROM ${t} WHERE ${c} IS NULL OR ${c} = ''`,
    );
  });
  return queries;
}

/** A name with only name characters (letters, digits, `_`), so it can be written unquoted. */
function bareName(name: string, fallback: string): string {
  const bare = name.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "");
  return bare === "" ? fallback : bare;
}

/**
 * Generated modifications of a table (the two engine gaps gold replay found on unseen standard tasks): the table and its first column renamed
 * to unquoted names that begin with digits (`1952_…`, `2nd_…`, as wikitq tables are named) with an
 * INSERT, an UPDATE and a SELECT over them; and UPDATE/DELETE statements whose WHERE compares each
 * column with an integer and a decimal literal (strict mode fails the UPDATE when a cell is not a
 * number). Each runs on a fresh database and is compared by outcome and table hash.
 */
export function generatedModifications(table: TableSpec): { tables: TableSpec[]; sql: string }[] {
  const renamedColumns = table.columns.map(
    (column, index) => `${index + 2}nd_${bareName(column, `c${index}`)}`,
  );
  const digitTable: TableSpec = {
    name: `1952_${bareName(table.name, "t")}`,
    columns: renamedColumns,
    rows: table.rows,
  };
  const first = renamedColumns[0] as string;
  const last = renamedColumns[renamedColumns.length - 1] as string;
  const sample = table.rows[0]?.[0] ?? "";
  const work = [
    `INSERT INTO ${digitTable.name} (${renamedColumns.join(", ")}) VALUES (${renamedColumns.map((_, index) => literal(`v${index}`)).join(", ")})`,
    `UPDATE ${digitTable.name} SET ${last} = 'changed' WHERE ${first} = ${literal(sample)}`,
    `DELETE FROM ${digitTable.name} WHERE ${first} = ${literal(sample)}`,
  ].map((sql) => ({ tables: [digitTable], sql }));
  const t = quote(table.name);
  const target = quote(table.columns[table.columns.length - 1] as string);
  table.columns.forEach((column, columnIndex) => {
    const c = quote(column);
    const number =
      table.rows.map((row) => Number.parseFloat(row[columnIndex] ?? "")).find(Number.isFinite) ?? 3;
    const integer = Math.trunc(number);
    for (const sql of [
      `UPDATE ${t} SET ${target} = 'changed' WHERE ${c} = ${integer}`,
      `UPDATE ${t} SET ${target} = 'changed' WHERE ${c} > ${integer}.5`,
      `DELETE FROM ${t} WHERE ${c} = ${integer}`,
      `DELETE FROM ${t} WHERE ${c} < ${integer}.5`,
    ])
      work.push({ tables: [table], sql });
  });
  return work;
}

/** A SELECT over the digit-first copy of a table (compared by its rows). */
export function generatedDigitQueries(table: TableSpec): { tables: TableSpec[]; sql: string }[] {
  const columns = table.columns.map((column, index) => `${index + 2}nd_${bareName(column, `c${index}`)}`);
  const digitTable: TableSpec = { name: `1952_${bareName(table.name, "t")}`, columns, rows: table.rows };
  const first = columns[0] as string;
  return [
    `SELECT COUNT(*) FROM ${digitTable.name}`,
    `SELECT ${first} FROM ${digitTable.name} WHERE ${first} = ${literal(table.rows[0]?.[0] ?? "")}`,
    `SELECT ${digitTable.name}.${first} FROM ${digitTable.name} ORDER BY ${first} LIMIT 3`,
  ].map((sql) => ({ tables: [digitTable], sql }));
}

function render(outcome: StatementOutcome): string {
  if (!outcome.ok) return `ERROR ${outcome.reason}: ${outcome.message.replace(/^(\d+) \(\w+\): .*/s, "$1")}`;
  return pythonRepr({ kind: "list", items: outcome.rows.map((row) => ({ kind: "tuple", items: row })) });
}

async function runOn(
  engine: DatabaseEngine,
  tables: readonly TableSpec[],
  sql: string,
  modifies: boolean,
): Promise<string> {
  const database = await engine.createDatabase(tables);
  try {
    const outcome = await database.execute(sql);
    if (!modifies) return render(outcome);
    return `${outcome.ok ? "ok" : render(outcome)}; hash ${await database.tableHash(tables)}`;
  } finally {
    await database.close();
  }
}

/** Options of `engineDiff`. */
export interface EngineDiffOptions {
  /** Benchmark whose tasks give the tables and gold statements (its engine is the candidate). */
  benchmark: DbBench;
  /** Reference engine (MySQL/MariaDB). */
  reference: DatabaseEngine;
  /** Task sets to take tables and gold statements from. */
  tasks: LoadTasksOptions[];
  /** Progress callback. */
  onProgress?: (done: number, total: number) => void;
  /** Include the generated modification and digit-first classes (default true). */
  generatedClasses?: boolean;
}

interface DiffWork {
  taskId: string;
  tables: TableSpec[];
  sql: string;
  modifies: boolean;
}

/** The statements to compare: each task's gold modification or generated queries, and the generated classes. */
async function collectWork(
  options: EngineDiffOptions,
  lookup: (taskId: string) => unknown,
): Promise<DiffWork[]> {
  const work: DiffWork[] = [];
  for (const source of options.tasks) {
    const loaded = await options.benchmark.loadTasks(source);
    for (const task of loaded.tasks) {
      const record = lookup(task.id) as DbBenchRecord;
      const tables = recordTables(record);
      if (modificationTypes.has(task.category)) {
        work.push({ taskId: task.id, tables, sql: recordLabel(record)[0] ?? "", modifies: true });
      } else {
        for (const sql of generatedQueries(tables[0] as TableSpec))
          work.push({ taskId: task.id, tables, sql, modifies: false });
      }
      if (options.generatedClasses === false) continue;
      const table = tables[0] as TableSpec;
      for (const item of generatedModifications(table))
        work.push({ taskId: task.id, ...item, modifies: true });
      for (const item of generatedDigitQueries(table))
        work.push({ taskId: `${task.id} (digit-first copy)`, ...item, modifies: false });
    }
  }
  return work;
}

/**
 * Runs the same statements on the candidate engine and on the reference: each gold INSERT/UPDATE
 * label SQL (compared by table hash) and the generated queries over every task's table (compared by
 * the rendered result). Each modification runs on a fresh database; queries share one per table.
 */
export async function engineDiff(options: EngineDiffOptions): Promise<EngineDiffReport> {
  const lookup = recordsOf.get(options.benchmark);
  if (lookup === undefined) throw new Error("engineDiff needs a benchmark made by createDbBench");
  const work = await collectWork(options, lookup);
  const disagreements: EngineDisagreement[] = [];
  let agreed = 0;
  const candidate = options.benchmark.engine;
  const databases = new Map<
    string,
    {
      reference: Awaited<ReturnType<DatabaseEngine["createDatabase"]>>;
      candidate: Awaited<ReturnType<DatabaseEngine["createDatabase"]>>;
    }
  >();
  let done = 0;
  try {
    for (const item of work) {
      let referenceText: string;
      let candidateText: string;
      if (item.modifies) {
        referenceText = await runOn(options.reference, item.tables, item.sql, true);
        candidateText = await runOn(candidate, item.tables, item.sql, true);
      } else {
        let pair = databases.get(item.taskId);
        if (pair === undefined) {
          for (const [key, open] of databases) {
            await open.reference.close();
            await open.candidate.close();
            databases.delete(key);
          }
          pair = {
            reference: await options.reference.createDatabase(item.tables),
            candidate: await candidate.createDatabase(item.tables),
          };
          databases.set(item.taskId, pair);
        }
        referenceText = render(await pair.reference.execute(item.sql));
        candidateText = render(await pair.candidate.execute(item.sql));
      }
      if (referenceText === candidateText) agreed += 1;
      else
        disagreements.push({
          taskId: item.taskId,
          sql: item.sql,
          reference: referenceText,
          candidate: candidateText,
        });
      done += 1;
      options.onProgress?.(done, work.length);
    }
  } finally {
    for (const open of databases.values()) {
      await open.reference.close();
      await open.candidate.close();
    }
  }
  return {
    reference: await options.reference.describe(),
    candidate: await candidate.describe(),
    statements: work.length,
    agreed,
    agreement: work.length === 0 ? 1 : agreed / work.length,
    disagreements,
  };
}
