import { InvalidInputError, type Task } from "@hs/spec";
import { type DbBenchRecord, dbbenchRecordSchema, modificationTypes, recordCategory } from "./dbbench-record.js";

/** A record with its task. */
export interface LoadedRecord {
  /** The public task. */
  task: Task;
  /** The full record (labels included); stays inside the benchmark. */
  record: DbBenchRecord;
}

/** Records that loaded and the problems of those that did not. */
export interface ParsedRecords {
  /** Loaded records in file order. */
  records: LoadedRecord[];
  /** One error per bad record, naming file, line and field. */
  problems: InvalidInputError[];
}

/** The public metadata of a record that the harness may render. */
export function taskMetadata(record: DbBenchRecord): Record<string, unknown> {
  const tables = Array.isArray(record.table) ? record.table : [record.table];
  const first = tables[0];
  const evidence = record.evidence ?? "";
  let fcContext = "";
  if (evidence !== "") fcContext += `Evidence about the question: ${evidence}\n`;
  if (record.add_description !== "") fcContext += `Additional table information about the question: ${record.add_description}\n`;
  return {
    description: record.description,
    addDescription: record.add_description,
    evidence,
    fcContext,
    tableName: first?.table_name ?? "",
    headers: first?.table_info.columns.map((column) => column.name) ?? [],
    tables: tables.map((table) => ({ name: table.table_name, headers: table.table_info.columns.map((column) => column.name) })),
  };
}

/** Turns one validated record into its task. */
export function recordToTask(record: DbBenchRecord, split: string, index: number): Task {
  return {
    id: `dbbench/${split}/${index}`,
    benchmark: "dbbench",
    split,
    category: recordCategory(record),
    instruction: `${record.description}\n${record.add_description}`,
    metadata: taskMetadata(record),
  };
}

const isBlank = (cell: unknown) => typeof cell === "string" && cell.trim() === "";

/**
 * Why a record cannot be graded, or would be passed by any empty answer, or undefined. An
 * INSERT/UPDATE/DELETE is graded by the expected table hash, taken from `answer_md5` or computed by
 * running `label[0]` (the reference statement), so it needs a non-empty one of them (a blank
 * statement changes nothing, so the hash of the untouched table would pass). A query is graded
 * against its `label` cells, so it needs at least one that is not empty text: with `label: []` or
 * `[""]` an empty answer passes.
 */
function ungradableProblem(record: DbBenchRecord): string | undefined {
  const category = recordCategory(record);
  if (modificationTypes.has(category)) {
    const statement = record.label[0];
    if ((typeof statement === "string" && !isBlank(statement)) || (record.answer_md5 ?? "").trim() !== "")
      return undefined;
    return `${category} records need "label" (a non-empty reference statement) or "answer_md5" (the expected table hash); it has ${record.label.length === 0 ? "neither" : `label ${JSON.stringify(record.label)} and no answer_md5`}, so an empty answer would pass`;
  }
  if (record.label.some((cell) => !isBlank(cell))) return undefined;
  const has = record.label.length === 0 ? "no label" : `label ${JSON.stringify(record.label)}`;
  return `a query (type ${category}) needs "label" with at least one expected answer that is not empty text; it has ${has}, so an empty answer would pass`;
}

/**
 * Parses AgentBench DBBench data (JSONL, or a JSON array when the file name ends in `.json`). A bad
 * line or record is reported (file, line, field) and skipped; the others load. Task ids are
 * `dbbench/<split>/<record index>` with the 0-based index of the record in the file.
 */
export function parseRecords(fileText: string, file: string, split: string): ParsedRecords {
  // a UTF-8 byte order mark at the start of the file is not part of the first record
  const text = fileText.startsWith("\uFEFF") ? fileText.slice(1) : fileText;
  const records: LoadedRecord[] = [];
  const problems: InvalidInputError[] = [];
  const entries: { line: number; value: unknown; error?: string }[] = [];
  if (file.endsWith(".json")) {
    try {
      const value = JSON.parse(text) as unknown;
      if (!Array.isArray(value)) problems.push(new InvalidInputError("expected a JSON array of records", { file }));
      else value.forEach((item, index) => entries.push({ line: index + 1, value: item }));
    } catch (error) {
      problems.push(new InvalidInputError(`invalid JSON: ${(error as Error).message}`, { file }));
    }
  } else {
    text.split("\n").forEach((raw, index) => {
      if (raw.trim() === "") return;
      try {
        entries.push({ line: index + 1, value: JSON.parse(raw) as unknown });
      } catch (error) {
        entries.push({ line: index + 1, value: undefined, error: `invalid JSON: ${(error as Error).message}` });
      }
    });
  }
  entries.forEach((entry, recordIndex) => {
    if (entry.error !== undefined) {
      problems.push(new InvalidInputError(entry.error, { file, line: entry.line }));
      return;
    }
    const parsed = dbbenchRecordSchema.safeParse(entry.value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues.slice(0, 1)) {
        const field = issue.path.map(String).join(".");
        problems.push(
          new InvalidInputError(issue.message, field === "" ? { file, line: entry.line } : { file, line: entry.line, field }),
        );
      }
      return;
    }
    const ungradable = ungradableProblem(parsed.data);
    if (ungradable !== undefined) {
      problems.push(new InvalidInputError(ungradable, { file, line: entry.line, field: "label" }));
      return;
    }
    records.push({ task: recordToTask(parsed.data, split, recordIndex), record: parsed.data });
  });
  return { records, problems };
}
