import type BetterSqlite3 from "better-sqlite3";
import Database from "better-sqlite3";
import type { PythonValue } from "../python/python-value.js";
import { TruncatedValueError } from "../sql/mysql-semantics.js";
import { mysqlToSqlite } from "../sql/mysql-to-sqlite.js";
import { SqlSyntaxError } from "../sql/mysql-tokens.js";
import {
  DeadlineExceededError,
  type DeadlineState,
  registerMysqlFunctions,
} from "../sql/sqlite-functions.js";
import {
  type DatabaseEngine,
  type EpisodeDatabase,
  type StatementLimits,
  type StatementOutcome,
  type TableSpec,
  timeoutMessage,
  tooLargeMessage,
} from "./database-engine.js";
import { combineTableHashes, tableHashError, tableHashOfRows } from "./table-hash.js";

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function toPython(value: unknown): PythonValue {
  if (value === null || value === undefined) return { kind: "none" };
  if (typeof value === "string") return { kind: "str", value };
  if (typeof value === "bigint") return { kind: "int", value };
  if (typeof value === "number") return { kind: "float", value };
  if (value instanceof Uint8Array) return { kind: "bytes", value: Buffer.from(value).toString("latin1") };
  return { kind: "str", value: String(value) };
}

const syntaxHelp =
  "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near";

function nearText(sql: string, token: string | undefined): string {
  if (token === undefined) return sql.slice(0, 80);
  const index = sql.toLowerCase().indexOf(token.toLowerCase());
  return (index < 0 ? sql : sql.slice(index)).slice(0, 80);
}

/** Whether a statement is an UPDATE (leading comments and parentheses skipped). */
function isUpdate(sql: string): boolean {
  const head = sql.replace(/^(\s+|\(|#[^\n]*\n|--\s[^\n]*\n|\/\*[\s\S]*?\*\/)*/, "");
  return /^update\b/i.test(head);
}

/** Turns a SQLite error into the connector's `errno (sqlstate): message` text, as MySQL would word it. */
export function mysqlStyleError(error: unknown, sql: string, databaseName: string): string {
  if (error instanceof SqlSyntaxError)
    return `1064 (42000): ${syntaxHelp} '${error.near.slice(0, 80)}' at line 1`;
  if (error instanceof TruncatedValueError) return `1292 (22007): ${error.message}`;
  const message = error instanceof Error ? error.message : String(error);
  const truncated = /^Truncated incorrect (DECIMAL|DOUBLE) value: '[\s\S]*'$/.exec(message);
  if (truncated) return `1292 (22007): ${message}`;
  const table = /^no such table: (?:\w+\.)?(.+)$/.exec(message);
  if (table) return `1146 (42S02): Table '${databaseName}.${table[1]}' doesn't exist`;
  const column = /^no such column: (.+)$/.exec(message);
  if (column)
    return `1054 (42S22): Unknown column '${(column[1] as string).replaceAll('"', "")}' in 'field list'`;
  const near = /^near "(.*)": syntax error$/s.exec(message);
  if (near) return `1064 (42000): ${syntaxHelp} '${nearText(sql, near[1])}' at line 1`;
  if (/incomplete input/.test(message)) return `1064 (42000): ${syntaxHelp} '' at line 1`;
  if (/^table .* already exists$/.test(message)) {
    return `1050 (42S01): Table '${/^table (.*) already exists$/.exec(message)?.[1]}' already exists`;
  }
  if (/wrong number of arguments to function (\w+)/.test(message)) {
    const name = /wrong number of arguments to function (\w+)/.exec(message)?.[1] ?? "";
    return `1582 (42000): Incorrect parameter count in the call to native function '${name.replace(/^hs_/, "").toUpperCase()}'`;
  }
  if (/^no such function: (\w+)$/.test(message)) {
    return `1305 (42000): FUNCTION ${databaseName}.${/^no such function: (\w+)$/.exec(message)?.[1]} does not exist`;
  }
  return `1105 (HY000): ${message}`;
}

/** Options of the SQLite engine. */
export interface SqliteEngineOptions {
  /** Statement limits. */
  limits: StatementLimits;
  /** Clock for deadlines (injectable for tests). */
  now?: () => number;
}

let databaseCounter = 0;

class SqliteEpisodeDatabase implements EpisodeDatabase {
  readonly name: string;
  private readonly database: BetterSqlite3.Database;
  private readonly state: DeadlineState;
  private closed = false;

  constructor(
    tables: readonly TableSpec[],
    private readonly limits: StatementLimits,
    now: () => number,
  ) {
    databaseCounter += 1;
    this.name = `hs_dbbench_${process.pid}_${databaseCounter}`;
    this.database = new Database(":memory:");
    this.database.defaultSafeIntegers(true);
    this.state = { deadline: Number.POSITIVE_INFINITY, now, databaseName: this.name };
    registerMysqlFunctions(this.database, this.state);
    for (const table of tables) {
      const columns = table.columns
        .map((column) => `${quoteIdentifier(column)} TEXT COLLATE NOCASE`)
        .join(", ");
      this.database.exec(`CREATE TABLE ${quoteIdentifier(table.name)} (${columns})`);
      if (table.rows.length === 0) continue;
      const insert = this.database.prepare(
        `INSERT INTO ${quoteIdentifier(table.name)} VALUES (${table.columns.map(() => "?").join(", ")})`,
      );
      this.database.transaction(() => {
        for (const row of table.rows) insert.run(...row);
      })();
    }
  }

  async execute(sql: string): Promise<StatementOutcome> {
    if (this.closed) throw new Error(`database ${this.name} is closed`);
    const special = this.mysqlStatement(sql);
    if (special !== undefined) return special;
    let statement: BetterSqlite3.Statement;
    try {
      statement = this.database.prepare(mysqlToSqlite(sql).sql);
    } catch (error) {
      return { ok: false, reason: "sql-error", message: mysqlStyleError(error, sql, this.name) };
    }
    this.state.deadline = this.state.now() + this.limits.timeLimitMs;
    // strict mode makes a truncating comparison an error in UPDATE only (DELETE and SELECT warn)
    this.state.strictComparisons = isUpdate(sql);
    try {
      if (!statement.reader) {
        const result = this.database.transaction(() => statement.run())();
        return { ok: true, rows: [], columns: [], affectedRows: Number(result.changes) };
      }
      statement.raw(true);
      const columns = statement.columns().map((column) => column.name);
      const rows: PythonValue[][] = [];
      for (const row of statement.iterate() as IterableIterator<unknown[]>) {
        if (rows.length >= this.limits.maxRows) {
          return { ok: false, reason: "too-large", message: tooLargeMessage(this.limits.maxRows) };
        }
        if ((rows.length & 255) === 255 && this.state.now() > this.state.deadline) {
          throw new DeadlineExceededError("statement deadline exceeded");
        }
        rows.push(row.map(toPython));
      }
      return { ok: true, rows, columns, affectedRows: 0 };
    } catch (error) {
      if (
        error instanceof DeadlineExceededError ||
        (error instanceof Error && /deadline exceeded/.test(error.message))
      ) {
        return { ok: false, reason: "timeout", message: timeoutMessage };
      }
      return { ok: false, reason: "sql-error", message: mysqlStyleError(error, sql, this.name) };
    } finally {
      this.state.deadline = Number.POSITIVE_INFINITY;
      this.state.strictComparisons = false;
    }
  }

  /** SHOW TABLES, SHOW COLUMNS FROM t, DESCRIBE t: answered from the schema as MariaDB answers them. */
  private mysqlStatement(sql: string): StatementOutcome | undefined {
    const tablesOf = () =>
      (
        this.database
          .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
          .raw(true)
          .all() as string[][]
      ).map((row) => row[0] as string);
    if (/^\s*SHOW\s+(FULL\s+)?TABLES\s*;?\s*$/i.test(sql)) {
      return {
        ok: true,
        rows: tablesOf().map((name) => [{ kind: "str", value: name }]),
        columns: [`Tables_in_${this.name}`],
        affectedRows: 0,
      };
    }
    const describe =
      /^\s*(?:DESCRIBE|DESC|EXPLAIN|SHOW\s+(?:FULL\s+)?(?:COLUMNS|FIELDS)\s+(?:FROM|IN))\s+(`(?:[^`]|``)+`|[^\s;`]+)\s*;?\s*$/i.exec(
        sql,
      );
    if (!describe) return undefined;
    const raw = describe[1] as string;
    const name = raw.startsWith("`") ? raw.slice(1, -1).replaceAll("``", "`") : raw;
    const table = tablesOf().find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    if (table === undefined)
      return {
        ok: false,
        reason: "sql-error",
        message: `1146 (42S02): Table '${this.name}.${name}' doesn't exist`,
      };
    const columns = this.database
      .prepare(`SELECT name FROM pragma_table_info(?)`)
      .raw(true)
      .all(table) as string[][];
    return {
      ok: true,
      rows: columns.map((column) => [
        { kind: "str", value: column[0] as string },
        { kind: "str", value: "text" },
        { kind: "str", value: "YES" },
        { kind: "str", value: "" },
        { kind: "none" },
        { kind: "str", value: "" },
      ]),
      columns: ["Field", "Type", "Null", "Key", "Default", "Extra"],
      affectedRows: 0,
    };
  }

  async tableHash(tables: readonly TableSpec[]): Promise<string | null> {
    const hashes = tables.map((table) => {
      const columns = table.columns.map(quoteIdentifier).join(", ");
      try {
        const rows = this.database
          .prepare(`SELECT ${columns} FROM ${quoteIdentifier(table.name)}`)
          .raw(true)
          .all() as unknown[][];
        return tableHashOfRows(rows.map((row) => row.map((cell) => (cell === null ? null : String(cell)))));
      } catch (error) {
        return tableHashError(error);
      }
    });
    return combineTableHashes(hashes);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.database.close();
  }
}

/**
 * SQLite in process (the default engine): one in-memory database per episode, MySQL-dialect SQL
 * rewritten to SQLite with MySQL's semantics (see `mysqlToSqlite` and `registerMysqlFunctions`).
 * The time limit is checked in every table scan and every comparison callback (better-sqlite3 has
 * no progress handler); the row limit while rows are read.
 */
export function createSqliteEngine(options: SqliteEngineOptions): DatabaseEngine {
  const now = options.now ?? Date.now;
  return {
    kind: "sqlite",
    async describe() {
      const database = new Database(":memory:");
      try {
        const version = database.prepare("SELECT sqlite_version() AS version").get() as { version: string };
        return `SQLite ${version.version} (better-sqlite3, MySQL emulation)`;
      } finally {
        database.close();
      }
    },
    async createDatabase(tables) {
      return new SqliteEpisodeDatabase(tables, options.limits, now);
    },
    async close() {},
  };
}
