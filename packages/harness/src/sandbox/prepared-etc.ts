import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { removeDirectoriesOfGoneProcesses } from "./stale-process-directories.js";

let prepared: string | null | undefined;
const prefix = "hs-sandbox-etc-";

/**
 * A copy of the given /etc entries in one directory (made once per process, in a 0700 directory
 * `hs-sandbox-etc-<pid>-*` of the OS temp directory, removed at exit or, should the process be killed
 * first, by the next process that makes one), so a sandbox binds /etc with one mount instead of one per entry:
 * the same names, contents, modes and inner symbolic links as the host's at the time of the copy (later
 * changes to the host's /etc are not seen), owned by the caller. Null when the copy cannot be made (the
 * caller then binds each entry).
 */
export function preparedEtcDirectory(entries: readonly string[]): string | null {
  if (prepared !== undefined) return prepared;
  let parent: string | undefined;
  try {
    removeDirectoriesOfGoneProcesses(prefix);
    parent = mkdtempSync(join(tmpdir(), `${prefix}${process.pid}-`));
    const etc = join(parent, "etc");
    mkdirSync(etc, { mode: 0o755 });
    // an entry that is a link is copied as what it names, as `--ro-bind` of it would show
    for (const entry of entries.filter((path) => existsSync(path)))
      cpSync(realpathSync(entry), join(etc, basename(entry)), {
        recursive: true,
        verbatimSymlinks: true,
        preserveTimestamps: true,
      });
    const made = parent;
    process.once("exit", () => rmSync(made, { recursive: true, force: true }));
    prepared = etc;
  } catch {
    if (parent !== undefined) rmSync(parent, { recursive: true, force: true });
    prepared = null;
  }
  return prepared;
}
