import { randomBytes } from "node:crypto";
import { EnvironmentError } from "@hs/spec";
import type { FieldPacket, Pool, PoolConnection } from "mysql2";
import mysql from "mysql2";
import type { PythonValue } from "../python/python-value.js";
import {
  type DatabaseEngine,
  type EpisodeDatabase,
  type StatementLimits,
  type StatementOutcome,
  type TableSpec,
  timeoutMessage,
  tooLargeMessage,
} from "./database-engine.js";
import { combineTableHashes, tableHashError } from "./table-hash.js";

/** Options of the MySQL / MariaDB engine. */
export interface MysqlEngineOptions {
  /** Server URL, `mysql://user:password@host:port`. */
  url: string;
  /** Statement limits. */
  limits: StatementLimits;
}

const numericTypes = new Set([1, 2, 3, 8, 9, 13]);
const floatTypes = new Set([4, 5]);
const decimalTypes = new Set([0, 246]);

/** A cell as mysql-connector's text protocol conversion returns it, rendered as a Python value. */
function toPython(value: unknown, field: FieldPacket | undefined): PythonValue {
  if (value === null || value === undefined) return { kind: "none" };
  const text = Buffer.isBuffer(value) ? value.toString("utf8") : String(value);
  const type = field?.columnType ?? 253;
  if (numericTypes.has(type)) return { kind: "int", value: BigInt(text) };
  if (floatTypes.has(type)) return { kind: "float", value: Number(text) };
  if (decimalTypes.has(type)) return { kind: "decimal", text };
  if (field?.characterSet === 63 && (type === 252 || type === 253 || type === 254 || type === 15)) {
    return { kind: "bytes", value: Buffer.isBuffer(value) ? value.toString("latin1") : text };
  }
  return { kind: "str", value: text };
}

function quoteIdentifier(name: string): string {
  return `\`${name.replaceAll("`", "``")}\``;
}

function errorText(error: unknown): string {
  if (typeof error === "object" && error !== null && "errno" in error && "sqlMessage" in error) {
    const record = error as { errno: number; sqlState?: string; sqlMessage: string };
    return `${record.errno} (${record.sqlState ?? "HY000"}): ${record.sqlMessage}`;
  }
  return error instanceof Error ? error.message : String(error);
}

function adminQuery(pool: Pool, sql: string, values: unknown[] = []): Promise<unknown> {
  return new Promise((resolve, reject) => {
    pool.query(sql, values, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

function connectionQuery(
  connection: PoolConnection | mysql.Connection,
  sql: string,
  values: unknown[] = [],
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    connection.query(sql, values, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

let databaseCounter = 0;

class MysqlEpisodeDatabase implements EpisodeDatabase {
  private closed = false;

  constructor(
    readonly name: string,
    private readonly connection: mysql.Connection,
    private readonly pool: Pool,
    private readonly limits: StatementLimits,
    private readonly isMariaDb: boolean,
  ) {}

  async execute(sql: string): Promise<StatementOutcome> {
    if (this.closed) throw new EnvironmentError(`database ${this.name} is closed`);
    const connection = this.connection;
    const threadId = connection.threadId;
    return new Promise((resolve) => {
      const rows: PythonValue[][] = [];
      let fields: FieldPacket[] | undefined;
      let affectedRows = 0;
      let stopped: "timeout" | "too-large" | undefined;
      let failure: string | undefined;
      const kill = (reason: "timeout" | "too-large") => {
        if (stopped !== undefined) return;
        stopped = reason;
        adminQuery(this.pool, `KILL QUERY ${Number(threadId)}`).catch(() => undefined);
      };
      const timer = setTimeout(() => kill("timeout"), this.limits.timeLimitMs + (this.isMariaDb ? 1000 : 0));
      const query = connection.query({ sql, rowsAsArray: true, typeCast: false });
      query.on("error", (error: unknown) => {
        const code = (error as { errno?: number }).errno;
        if (code === 1969 || code === 3024) stopped ??= "timeout";
        failure = errorText(error);
      });
      query.on("fields", (packets: FieldPacket[]) => {
        fields = packets;
      });
      query.on("result", (row: unknown) => {
        if (stopped !== undefined) return;
        if (Array.isArray(row)) {
          if (rows.length >= this.limits.maxRows) {
            kill("too-large");
            return;
          }
          rows.push(row.map((cell, index) => toPython(cell, fields?.[index])));
        } else if (typeof row === "object" && row !== null && "affectedRows" in row) {
          affectedRows += Number((row as { affectedRows: number }).affectedRows);
        }
      });
      query.on("end", () => {
        clearTimeout(timer);
        if (stopped === "timeout") resolve({ ok: false, reason: "timeout", message: timeoutMessage });
        else if (stopped === "too-large")
          resolve({ ok: false, reason: "too-large", message: tooLargeMessage(this.limits.maxRows) });
        else if (failure !== undefined) resolve({ ok: false, reason: "sql-error", message: failure });
        else resolve({ ok: true, rows, columns: (fields ?? []).map((field) => field.name), affectedRows });
      });
    });
  }

  async tableHash(tables: readonly TableSpec[]): Promise<string | null> {
    const hashes: (string | null)[] = [];
    for (const table of tables) {
      const columns = table.columns.map(quoteIdentifier).join(",");
      const sql =
        `select md5(group_concat(rowhash order by rowhash)) as hash from( SELECT substring(MD5(CONCAT_WS(',', ${columns})), 1, 5) AS rowhash ` +
        `FROM ${quoteIdentifier(table.name)}) as sub`;
      try {
        const result = (await connectionQuery(this.connection, sql)) as { hash: string | null }[];
        hashes.push(result[0]?.hash ?? null);
      } catch (error) {
        hashes.push(tableHashError(error));
      }
    }
    return combineTableHashes(hashes);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await new Promise<void>((resolve) => this.connection.end(() => resolve()));
    await adminQuery(this.pool, `DROP DATABASE IF EXISTS ${quoteIdentifier(this.name)}`);
  }
}

/**
 * The session `sql_mode` of every episode: MySQL 8.0's default. AgentBench runs the DB task on the stock
 * MySQL image without a `--sql-mode` flag or a `SET sql_mode` (THUDM/AgentBench@v0.2
 * src/server/tasks/dbbench/Interaction.py line 14, image "mysql", and `Container.execute`, lines 65-86;
 * main src/server/tasks/dbbench/environment.py lines 20-50, image "docker.io/library/mysql:8" whose
 * command flags set no sql_mode), so its sessions run with the server default, which for MySQL 8.0 is
 * this list (MariaDB 10.11's default differs: no ONLY_FULL_GROUP_BY, NO_ZERO_IN_DATE, NO_ZERO_DATE).
 * STRICT_TRANS_TABLES makes an UPDATE or DELETE whose WHERE compares a non-numeric TEXT cell with a
 * number fail (1292) where a SELECT only warns.
 */
export const agentBenchSqlMode =
  "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION";

/** Sets the session's time limit and sql_mode and creates the task's tables with their rows. */
async function prepareEpisodeDatabase(
  connection: mysql.Connection,
  limits: StatementLimits,
  isMariaDb: boolean,
  tables: readonly TableSpec[],
): Promise<void> {
  const seconds = limits.timeLimitMs / 1000;
  await connectionQuery(
    connection,
    isMariaDb
      ? `SET SESSION max_statement_time = ${seconds}`
      : `SET SESSION max_execution_time = ${Math.ceil(limits.timeLimitMs)}`,
  );
  await connectionQuery(connection, `SET SESSION sql_mode = '${agentBenchSqlMode}'`);
  for (const table of tables) {
    const columns = table.columns.map((column) => `${quoteIdentifier(column)} TEXT`).join(",");
    await connectionQuery(
      connection,
      `CREATE TABLE IF NOT EXISTS ${quoteIdentifier(table.name)} (${columns})`,
    );
    if (table.rows.length === 0) continue;
    const valueMarks = table.rows.map((row) => `(${row.map(() => "?").join(",")})`).join(",");
    await connectionQuery(
      connection,
      `INSERT INTO ${quoteIdentifier(table.name)} (${table.columns.map(quoteIdentifier).join(",")}) VALUES ${valueMarks}`,
      table.rows.flat(),
    );
  }
}

/**
 * MySQL / MariaDB over the wire (the reference engine): one database per episode, created from the
 * task's tables (TEXT columns, rows inserted with parameters) as AgentBench's `_build_init_sql`
 * does, dropped on close. Per-statement time limit through `max_statement_time` (MariaDB) or
 * `max_execution_time` (MySQL) backed by `KILL QUERY`; row limit by streaming and `KILL QUERY`.
 */
export function createMysqlEngine(options: MysqlEngineOptions): DatabaseEngine {
  const url = new URL(options.url);
  const connectionOptions = {
    host: url.hostname,
    port: url.port === "" ? 3306 : Number(url.port),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    charset: "utf8mb4",
    supportBigNumbers: true,
    bigNumberStrings: true,
  };
  const pool = mysql.createPool({ ...connectionOptions, connectionLimit: 4 });
  let flavour: Promise<{ version: string; isMariaDb: boolean }> | undefined;
  const serverFlavour = () => {
    flavour ??= adminQuery(pool, "SELECT VERSION() AS version").then((result) => {
      const version = String((result as { version: string }[])[0]?.version ?? "");
      return { version, isMariaDb: /mariadb/i.test(version) };
    });
    return flavour;
  };
  return {
    kind: "mysql",
    async describe() {
      const { version, isMariaDb } = await serverFlavour();
      return `${isMariaDb ? "MariaDB" : "MySQL"} ${version} at ${url.hostname}:${url.port}`;
    },
    async createDatabase(tables) {
      let info: { isMariaDb: boolean };
      try {
        info = await serverFlavour();
      } catch (error) {
        flavour = undefined;
        throw new EnvironmentError(
          `cannot reach the MySQL server at ${url.hostname}:${url.port}: ${errorText(error)}`,
          {
            cause: error,
            isRetryable: true,
          },
        );
      }
      databaseCounter += 1;
      const name = `hs_dbbench_${process.pid}_${databaseCounter}_${randomBytes(3).toString("hex")}`;
      await adminQuery(pool, `CREATE DATABASE ${quoteIdentifier(name)}`);
      const connection = mysql.createConnection({ ...connectionOptions, database: name });
      try {
        await new Promise<void>((resolve, reject) =>
          connection.connect((error) => (error ? reject(error) : resolve())),
        );
        await prepareEpisodeDatabase(connection, options.limits, info.isMariaDb, tables);
      } catch (error) {
        connection.destroy();
        await adminQuery(pool, `DROP DATABASE IF EXISTS ${quoteIdentifier(name)}`).catch(() => undefined);
        throw new EnvironmentError(`cannot create the episode database ${name}: ${errorText(error)}`, {
          cause: error,
        });
      }
      return new MysqlEpisodeDatabase(name, connection, pool, options.limits, info.isMariaDb);
    },
    async close() {
      await new Promise<void>((resolve) => pool.end(() => resolve()));
    },
  };
}
