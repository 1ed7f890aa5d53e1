import { readFileSync } from "node:fs";
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { HarnessSError } from "@hs/spec";
import { z } from "zod";

/** Name of the lock file inside a run directory. */
export const lockFileName = ".hs-run.lock";

/** What the lock file records about its holder. */
export const runLockSchema = z.strictObject({
  /** Process id of the holder. */
  pid: z.number().int().positive(),
  /** ISO time the holder took the lock. */
  startedAt: z.string(),
  /** Host the holder runs on (a pid means nothing on another host). */
  host: z.string(),
  /** Start time of the holder process in clock ticks since boot (Linux), to tell a reused pid. */
  processStart: z.number().int().nonnegative().nullable(),
  /** The command that holds it, for the message. */
  command: z.string(),
});
/** What the lock file records about its holder. */
export type RunLock = z.infer<typeof runLockSchema>;

/** A second writer tried to take a run directory that a live process holds. */
export class RunDirectoryBusyError extends HarnessSError {
  constructor(message: string) {
    super("HarnessSRunDirectoryBusyError", message);
  }
}

/** Start time of a process (field 22 of /proc/PID/stat), or null where /proc is not available. */
export function processStartTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // the command name (field 2) may hold spaces and parentheses: count fields after its last ")"
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const value = Number(fields[19]);
    return Number.isInteger(value) ? value : null;
  } catch {
    return null;
  }
}

/** Whether the process that wrote `lock` still runs (same host, pid alive, same start time). */
export function isLockHolderAlive(lock: RunLock): boolean {
  if (lock.host !== hostname()) return true; // cannot tell: treat as alive
  try {
    process.kill(lock.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const start = processStartTicks(lock.pid);
  return lock.processStart === null || start === null || start === lock.processStart;
}

async function readLock(file: string): Promise<RunLock | null> {
  try {
    const parsed = runLockSchema.safeParse(JSON.parse(await readFile(file, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Creates the lock file whole or not at all: the record is written to a file of this process, then
 * hard-linked to the lock's name (atomic, and refused when the name exists), so another writer never
 * reads a lock that is still being written.
 */
async function createLockFile(file: string, lock: RunLock): Promise<boolean> {
  const draft = `${file}.${process.pid}.tmp`;
  await writeFile(draft, `${JSON.stringify(lock)}\n`);
  try {
    await link(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await rm(draft, { force: true });
  }
}

/** The live process that holds a run directory's lock, or null when none does (no lock, or a stale one). */
export async function liveLockHolder(directory: string): Promise<RunLock | null> {
  const holder = await readLock(join(directory, lockFileName));
  return holder !== null && isLockHolderAlive(holder) ? holder : null;
}

/** A held lock; `release` removes the file if it is still ours. */
export interface HeldRunLock {
  /** The lock file. */
  file: string;
  /** Removes the lock file (idempotent). */
  release(): Promise<void>;
}

/**
 * Takes the lock of a run directory (creating the directory). A lock held by a live process is
 * refused with a `RunDirectoryBusyError` naming its pid, command and start; a lock whose holder is
 * gone (or an unreadable lock file) is stale: it is taken over and `warn` says so.
 */
export async function acquireRunLock(
  directory: string,
  command: string,
  warn: (message: string) => void,
): Promise<HeldRunLock> {
  await mkdir(directory, { recursive: true });
  const file = join(directory, lockFileName);
  const mine: RunLock = {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    host: hostname(),
    processStart: processStartTicks(process.pid),
    command,
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await createLockFile(file, mine)) return heldLock(file, mine);
    const holder = await readLock(file);
    if (holder !== null && isLockHolderAlive(holder)) {
      throw new RunDirectoryBusyError(
        `${directory} is in use: "${holder.command}" (pid ${holder.pid} on ${holder.host}, started ${holder.startedAt}) holds ${file}; wait for it to finish or use another --out`,
      );
    }
    warn(
      holder === null
        ? `taking over ${file}: the lock file is unreadable (its writer died while writing it)`
        : `taking over a stale lock: pid ${holder.pid} ("${holder.command}", started ${holder.startedAt}) no longer runs`,
    );
    await rm(file, { force: true });
  }
  throw new RunDirectoryBusyError(`${directory}: another process keeps taking ${file}; try again`);
}

function heldLock(file: string, mine: RunLock): HeldRunLock {
  let released = false;
  return {
    file,
    async release() {
      if (released) return;
      released = true;
      const current = await readLock(file);
      if (current !== null && current.pid === mine.pid && current.startedAt === mine.startedAt)
        await rm(file, { force: true });
    },
  };
}
