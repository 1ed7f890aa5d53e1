import { readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the OS temp directory's `<prefix><pid>-*` entries of processes that are gone (a test worker
 * or a run killed before its exit hook ran); those of this process and of live ones stay.
 */
export function removeDirectoriesOfGoneProcesses(prefix: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(/^(\d+)-/.exec(name.slice(prefix.length))?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || processAlive(pid)) continue;
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}
