/** A row of a world table; every row has a numeric id. */
export type Row = { id: number } & Record<string, unknown>;

/** A person of the synthetic world. */
export interface Person {
  /** First name. */
  first_name: string;
  /** Last name. */
  last_name: string;
  /** Email, also the username of every app. */
  email: string;
  /** Phone number. */
  phone_number: string;
}

/**
 * The state of one world: tables of rows, the people, and the counters of new ids. Everything graded
 * is in `tables`; sessions (access tokens) and the submitted answer are kept beside it.
 */
export interface WorldDatabase {
  /** Table name (`app.table`) -> rows. */
  tables: Record<string, Row[]>;
  /** Everyone in the world; `people[0]` is the supervisor. */
  people: Person[];
  /** Next id per table. */
  nextIds: Record<string, number>;
  /** The world's current date and time (ISO, no zone). */
  datetime: string;
}

/** Every table of the offline world. */
export const tableNames = [
  "supervisor.accounts",
  "music.songs",
  "music.playlists",
  "music.liked_songs",
  "payments.transactions",
  "payments.requests",
  "payments.balances",
  "payments.cards",
  "email.emails",
  "email.drafts",
  "notes.notes",
  "todo.projects",
  "todo.tasks",
  "phone.contacts",
  "phone.messages",
  "phone.alarms",
  "files.files",
  "files.directories",
] as const;
/** A table of the offline world. */
export type TableName = (typeof tableNames)[number];

/** An empty database at a date. */
export function emptyDatabase(datetime: string): WorldDatabase {
  const tables: Record<string, Row[]> = {};
  const nextIds: Record<string, number> = {};
  for (const name of tableNames) {
    tables[name] = [];
    nextIds[name] = 1;
  }
  return { tables, people: [], nextIds, datetime };
}

/** The rows of a table (throws on an unknown table: a bug of a definition, not of agent input). */
export function rowsOf(database: WorldDatabase, table: TableName): Row[] {
  const rows = database.tables[table];
  if (rows === undefined) throw new Error(`no table ${table}`);
  return rows;
}

/** Inserts a row with the next id and returns it. */
export function insertRow(database: WorldDatabase, table: TableName, values: Record<string, unknown>): Row {
  const id = database.nextIds[table] ?? 1;
  database.nextIds[table] = id + 1;
  const row: Row = { ...values, id };
  rowsOf(database, table).push(row);
  return row;
}

/** A deep copy (rows are plain JSON). */
export function cloneDatabase(database: WorldDatabase): WorldDatabase {
  return structuredClone(database);
}
