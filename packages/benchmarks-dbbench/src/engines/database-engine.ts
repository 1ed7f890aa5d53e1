import type { PythonValue } from "../python/python-value.js";

/** One table of a DBBench record: every column is TEXT. */
export interface TableSpec {
  /** Table name as the record gives it (may contain spaces). */
  name: string;
  /** Column names, unique. */
  columns: readonly string[];
  /** Rows; each cell a string or NULL. */
  rows: readonly (readonly (string | null)[])[];
}

/** The outcome of one statement. */
export type StatementOutcome =
  | {
      /** The statement ran. */
      ok: true;
      /** Result rows as Python values (what AgentBench's connector returns); empty without a result set. */
      rows: PythonValue[][];
      /** Column names of the result set, empty without one. */
      columns: string[];
      /** Rows changed by a data-changing statement. */
      affectedRows: number;
    }
  | {
      /** The statement failed. */
      ok: false;
      /** Why: a SQL error, the time limit, or the result-size limit. */
      reason: "sql-error" | "timeout" | "too-large";
      /** The text shown to the policy (the server's error in the connector's `errno (sqlstate): message` form). */
      message: string;
    };

/** Limits enforced on every statement. */
export interface StatementLimits {
  /** Milliseconds a statement may run. */
  timeLimitMs: number;
  /** Result rows a statement may return. */
  maxRows: number;
}

/** One episode's isolated database. */
export interface EpisodeDatabase {
  /** Name of the database (the MySQL schema, or the SQLite label). */
  readonly name: string;
  /** Runs one statement under the limits; never throws for SQL errors. */
  execute(sql: string): Promise<StatementOutcome>;
  /**
   * AgentBench's table hash of each table, sorted and joined with `_`; null when the one table is
   * empty (`None` inside a joined hash); `error: ...` when a table cannot be read.
   */
  tableHash(tables: readonly TableSpec[]): Promise<string | null>;
  /** Drops the database. Safe to call twice. */
  close(): Promise<void>;
}

/** A database engine: creates one isolated database per episode. */
export interface DatabaseEngine {
  /** `sqlite` or `mysql`. */
  readonly kind: "sqlite" | "mysql";
  /** Human-readable description (server version for MySQL). */
  describe(): Promise<string>;
  /** Creates a database holding the tables (TEXT columns, rows inserted with parameters). */
  createDatabase(tables: readonly TableSpec[]): Promise<EpisodeDatabase>;
  /** Releases shared resources (connection pools). */
  close(): Promise<void>;
}

/** Message shown for a statement stopped by the time limit (AgentBench FC's wording, task.py). */
export const timeoutMessage = "Error: SQL execution timed out.";

/** Message shown for a result over the row limit. */
export function tooLargeMessage(maxRows: number): string {
  return `Error: the result has more than ${maxRows} rows; the statement was stopped. Narrow the query (WHERE, LIMIT, aggregates).`;
}
