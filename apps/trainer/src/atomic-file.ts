import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Writing an output failed (a full disk, a vanished directory); the file it names is unchanged. */
export class OutputWriteError extends Error {
  override readonly name = "OutputWriteError";
  /** The output that was not written. */
  readonly file: string;

  constructor(file: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException).code;
    const reason = code === "ENOSPC" ? "ENOSPC: no space left on the device" : String(cause);
    super(`cannot write ${file} (${reason}); nothing was replaced: ${file} is as it was before (or absent)`, {
      cause,
    });
    this.file = file;
  }
}

/** The temporary name beside `file` that a write goes to before it is renamed into place. */
export function draftNameOf(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
}

/**
 * Writes `file` whole or not at all: `write` fills (or appends to) an empty temporary file created
 * in the same directory, which is flushed to the disk and then renamed over `file` (atomic on one
 * file system). A failure (ENOSPC on a full disk...) removes the temporary file, leaves `file` as it
 * was, and is an `OutputWriteError` naming `file`.
 */
export async function replaceAtomically(
  file: string,
  write: (draft: string) => Promise<unknown>,
): Promise<void> {
  const draft = draftNameOf(file);
  try {
    await (await open(draft, "wx")).close();
    await write(draft);
    const handle = await open(draft, "r+");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(draft, file);
  } catch (error) {
    await rm(draft, { force: true });
    throw new OutputWriteError(file, error);
  }
}

/** `replaceAtomically` for text or bytes already in memory. */
export function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  return replaceAtomically(file, async (draft) => {
    const handle = await open(draft, "w");
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
  });
}
