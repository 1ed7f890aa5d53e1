import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claimRunDirectory, fingerprintChanges } from "./run-directory.js";
import { acquireRunLock, isLockHolderAlive, lockFileName, processStartTicks } from "./run-lock.js";

const lockOf = (pid: number, processStart: number | null) => ({
  pid,
  startedAt: "2026-12-01T20:00:00.000Z",
  host: hostname(),
  processStart,
  command: "hs train",
});

describe("the run lock", () => {
  it("tells a live holder from a dead pid and from a reused pid", () => {
    expect(isLockHolderAlive(lockOf(process.pid, processStartTicks(process.pid)))).toBe(true);
    const dead = spawnSync(process.execPath, ["-e", ""]).pid ?? 999_999;
    expect(isLockHolderAlive(lockOf(dead, null))).toBe(false);
    const start = processStartTicks(process.pid);
    if (start !== null) expect(isLockHolderAlive(lockOf(process.pid, start + 1))).toBe(false);
  });

  it("refuses a second holder, takes over a stale lock with a message and releases only its own", async () => {
    const directory = await mkdtemp(join(tmpdir(), "hs-lock-"));
    const warnings: string[] = [];
    const held = await acquireRunLock(directory, "hs train --seed 1", (message) => warnings.push(message));
    await expect(acquireRunLock(directory, "hs train --seed 1", () => {})).rejects.toThrow(
      new RegExp(`is in use: "hs train --seed 1" \\(pid ${process.pid} `),
    );
    await held.release();
    expect(existsSync(join(directory, lockFileName))).toBe(false);
    writeFileSync(join(directory, lockFileName), '{"pid":');
    const taken = await acquireRunLock(directory, "hs train", (message) => warnings.push(message));
    expect(warnings).toEqual([expect.stringContaining("the lock file is unreadable")]);
    writeFileSync(
      join(directory, lockFileName),
      JSON.stringify({ ...lockOf(process.pid, null), startedAt: "x" }),
    );
    await taken.release();
    expect(JSON.parse(readFileSync(join(directory, lockFileName), "utf8")).startedAt).toBe("x");
  });
});

describe("the input fingerprint", () => {
  it("names every changed input with both values and refuses a changed resume", async () => {
    expect(fingerprintChanges({ a: "1", b: "2" }, { a: "1", b: "3", c: "4" })).toEqual([
      "b (2 when the run started, 3 now)",
      "c (absent when the run started, 4 now)",
    ]);
    const directory = await mkdtemp(join(tmpdir(), "hs-claim-"));
    expect(await claimRunDirectory(directory, "train", { harness: "h1" })).toBe("new");
    expect(await claimRunDirectory(directory, "train", { harness: "h1" })).toBe("resume");
    await expect(claimRunDirectory(directory, "train", { harness: "h2" })).rejects.toThrow(
      "an input changed since the run started: harness (h1 when the run started, h2 now)",
    );
    writeFileSync(join(directory, "run-inputs.json"), "{");
    await expect(claimRunDirectory(directory, "train", { harness: "h1" })).rejects.toThrow(
      /run-inputs\.json: cannot read the run's input fingerprint/,
    );
  });
});
