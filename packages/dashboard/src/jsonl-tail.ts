import { open, stat } from "node:fs/promises";

/** One complete line of a JSONL file, parsed (and kept as `keep` made it), with where it sits in the file. */
export interface JsonlRow<Kept = unknown> {
  /** 1-based line number. */
  line: number;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** Byte length of the line, without its newline. */
  length: number;
  /** What `keep` made of the parsed value. */
  value: Kept;
}

/** What a JSONL file could not give: a bad line, a cut last line, a missing or replaced file. */
export interface JsonlProblem {
  /** File path. */
  file: string;
  /** 1-based line number, when the problem is one line. */
  line?: number;
  /** What is wrong, in words. */
  message: string;
}

const chunkBytes = 1 << 20;

/** Calls `onLine` with each complete line of `data` (without its newline) and returns the unfinished rest. */
function splitLines(data: Buffer, onLine: (bytes: Buffer) => void): Buffer {
  let rest = data;
  let newline = rest.indexOf(10);
  while (newline !== -1) {
    onLine(rest.subarray(0, newline));
    rest = rest.subarray(newline + 1);
    newline = rest.indexOf(10);
  }
  return rest;
}

function unfinishedLine(file: string, line: number, bytes: number): JsonlProblem {
  return {
    file,
    line,
    message: `line ${line} has no end yet (${bytes} bytes): still being written, or cut off`,
  };
}

/**
 * Reads a JSONL file that may still be growing: each `read()` parses only the bytes appended since the
 * last one. A last line without its newline is held back (it may be half written) and reported; a line
 * that is not JSON is reported with its number and skipped; a file that shrank is read again from the
 * start. `keep` reduces each parsed line to what is held in memory (a summary of a large record).
 */
export function createJsonlTail<Kept = unknown>(
  file: string,
  keep: (value: unknown) => Kept = (value) => value as Kept,
) {
  let offset = 0;
  let line = 0;
  let pending = Buffer.alloc(0);
  let rows: JsonlRow<Kept>[] = [];
  let badLines: JsonlProblem[] = [];

  const reset = () => {
    offset = 0;
    line = 0;
    pending = Buffer.alloc(0);
    rows = [];
    badLines = [];
  };

  const take = (bytes: Buffer, start: number) => {
    line += 1;
    const text = bytes.toString("utf8").replace(/\r$/, "");
    if (text.trim() === "") return;
    try {
      rows.push({ line, offset: start, length: bytes.length, value: keep(JSON.parse(text)) });
    } catch (error) {
      badLines.push({ file, line, message: `line ${line}: ${(error as Error).message}` });
    }
  };

  return {
    /** Every row read so far (new rows appended at the end). */
    get rows(): readonly JsonlRow<Kept>[] {
      return rows;
    },
    /** Whether the last `read` stopped at its byte limit with more of the file left. */
    behind: false,
    /**
     * Reads what was appended, at most `maxBytes` of it (default: all), and returns the problems as of
     * now; `behind` says whether more is left.
     */
    async read(maxBytes = Number.POSITIVE_INFINITY): Promise<JsonlProblem[]> {
      const info = await stat(file).catch(() => null);
      this.behind = false;
      if (info === null) {
        reset();
        return [{ file, message: "not there (yet)" }];
      }
      if (info.size < offset + pending.length) reset();
      const handle = await open(file, "r");
      try {
        let position = offset + pending.length;
        const stop = Math.min(info.size, position + maxBytes);
        while (position < stop) {
          const buffer = Buffer.alloc(Math.min(chunkBytes, stop - position));
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
          if (bytesRead === 0) break;
          position += bytesRead;
          const data = Buffer.concat([pending, buffer.subarray(0, bytesRead)]);
          pending = Buffer.from(
            splitLines(data, (bytes) => {
              take(bytes, offset);
              offset += bytes.length + 1;
            }),
          );
        }
        this.behind = position < info.size;
      } finally {
        await handle.close();
      }
      const problems = [...badLines];
      if (pending.length > 0 && !this.behind) problems.push(unfinishedLine(file, line + 1, pending.length));
      return problems;
    },
  };
}

/** Reads `length` bytes at `offset` of a file and parses them as one JSON value. */
export async function readJsonAt(file: string, offset: number, length: number): Promise<unknown> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, offset);
    return JSON.parse(buffer.toString("utf8"));
  } finally {
    await handle.close();
  }
}
