import { readFile, stat } from "node:fs/promises";
import { InvalidInputError } from "@hs/spec";

/** Removes a leading UTF-8 byte order mark (editors on Windows write one; JSON.parse rejects it). */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

/**
 * Parses JSON text of a file: a BOM is accepted; empty text and a syntax error are `InvalidInputError`s
 * naming the file, the line and what was expected (`what`, e.g. "a harness config").
 */
export function parseJsonText(text: string, file: string, what: string): unknown {
  const body = stripBom(text);
  if (body.trim() === "") throw new InvalidInputError(`the file is empty; expected ${what} (JSON)`, { file });
  try {
    return JSON.parse(body);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(reason)?.[1];
    const end = position === undefined ? body.length : Number(position);
    const { line, column } = lineAndColumn(body, end);
    const truncated = end >= body.trimEnd().length ? " (the file looks truncated)" : "";
    throw new InvalidInputError(
      `not valid JSON at column ${column}${truncated}: ${reason}; expected ${what}`,
      { file, line },
      { cause: error },
    );
  }
}

/**
 * Reads and parses a JSON file with errors that name it: a missing path, a directory, an empty file
 * and invalid JSON each say what was expected.
 */
export async function readJsonFile(file: string, what: string): Promise<unknown> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InvalidInputError(
      code === "ENOENT" ? `no such file; expected ${what}` : `cannot read (${code}); expected ${what}`,
      { file },
      { cause: error },
    );
  }
  if (info.isDirectory())
    throw new InvalidInputError(`is a directory; expected ${what} (a JSON file)`, { file });
  return parseJsonText(await readFile(file, "utf8"), file, what);
}
