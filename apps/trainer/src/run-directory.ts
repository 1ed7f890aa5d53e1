import { createHash } from "node:crypto";
import { existsSync, realpathSync, statSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { canonicalJson } from "@hs/harness";
import { HarnessSError } from "@hs/spec";
import { z } from "zod";
import { writeFileAtomic } from "./atomic-file.js";
import { UsageError } from "./command.js";
import { acquireRunLock, lockFileName } from "./run-lock.js";

/** Name of the file in which a run records the fingerprint of its inputs. */
export const fingerprintFileName = "run-inputs.json";

/** A run directory cannot be used: it holds another run, foreign files, or changed inputs. */
export class RunDirectoryError extends HarnessSError {
  constructor(message: string) {
    super("HarnessSRunDirectoryError", message);
  }
}

/** What shapes a run, by name (`harness`, `data`, `pool`, `config.learningRate`...): text values. */
export type RunFingerprint = Record<string, string>;

const fingerprintFileSchema = z.strictObject({
  /** Format version. */
  formatVersion: z.literal(1),
  /** The command that started the run. */
  command: z.string(),
  /** The inputs. */
  inputs: z.record(z.string(), z.string()),
});

/** `sha256:` and the hex digest of a file's bytes. */
export async function fileDigest(file: string): Promise<string> {
  return `sha256:${createHash("sha256")
    .update(await readFile(file))
    .digest("hex")}`;
}

/** `sha256:` and the first 16 hex characters of a value's canonical JSON. */
export function valueDigest(value: unknown): string {
  return `sha256:${createHash("sha256").update(canonicalJson(value)).digest("hex").slice(0, 16)}`;
}

/** Flattens a config object into `prefix.key` fingerprint entries (nested keys dotted). */
export function flattenInto(fingerprint: RunFingerprint, prefix: string, value: unknown): void {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [key, entry] of Object.entries(value)) flattenInto(fingerprint, `${prefix}.${key}`, entry);
    return;
  }
  if (value !== undefined) fingerprint[prefix] = JSON.stringify(value);
}

/** The names whose values differ between two fingerprints, with both values. */
export function fingerprintChanges(before: RunFingerprint, now: RunFingerprint): string[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(now)])].sort();
  return names
    .filter((name) => before[name] !== now[name])
    .map(
      (name) => `${name} (${before[name] ?? "absent"} when the run started, ${now[name] ?? "absent"} now)`,
    );
}

async function readFingerprint(file: string): Promise<z.infer<typeof fingerprintFileSchema>> {
  let value: unknown;
  try {
    value = JSON.parse((await readFile(file, "utf8")).replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new RunDirectoryError(
      `${file}: cannot read the run's input fingerprint (${error instanceof Error ? error.message : String(error)}); expected the JSON this command wrote at the run's start`,
    );
  }
  const parsed = fingerprintFileSchema.safeParse(value);
  if (!parsed.success)
    throw new RunDirectoryError(
      `${file}: field "${parsed.error.issues[0]?.path.join(".")}": not a run fingerprint (${parsed.error.issues[0]?.message})`,
    );
  return parsed.data;
}

/**
 * Makes `directory` this run's own: a new or empty directory gets the fingerprint; a directory this
 * command started resumes only when every fingerprint entry is unchanged; a directory with files the
 * run did not write (no fingerprint) is refused. Call it with the run lock held.
 */
export async function claimRunDirectory(
  directory: string,
  command: string,
  fingerprint: RunFingerprint,
): Promise<"new" | "resume"> {
  const file = join(directory, fingerprintFileName);
  const entries = (await readdir(directory)).filter((name) => name !== lockFileName);
  if (!entries.includes(fingerprintFileName)) {
    if (entries.length > 0) {
      const shown = entries.slice(0, 5).join(", ");
      throw new RunDirectoryError(
        `${directory} holds files this run did not write (${shown}${entries.length > 5 ? `, and ${entries.length - 5} more` : ""}) and no ${fingerprintFileName}; "hs ${command}" writes only into a new or empty directory, or resumes one it started: use another --out`,
      );
    }
    const written = { formatVersion: 1 as const, command, inputs: fingerprint };
    await writeFileAtomic(file, `${JSON.stringify(written, null, 2)}\n`);
    return "new";
  }
  const previous = await readFingerprint(file);
  const changes = fingerprintChanges(previous.inputs, fingerprint);
  if (previous.command !== command) changes.unshift(`command (${previous.command} then, ${command} now)`);
  if (changes.length > 0)
    throw new RunDirectoryError(
      `cannot resume ${directory}: ${changes.length === 1 ? "an input" : `${changes.length} inputs`} changed since the run started: ${changes.join("; ")}. Restore them or use another --out`,
    );
  return "resume";
}

/** An input path of a command, for the output checks. */
export interface NamedPath {
  /** The option, e.g. `--data`. */
  option: string;
  /** The path given (undefined: option absent). */
  path: string | undefined;
}

/** The real path of `path`, or of its nearest existing ancestor joined with the rest. */
function realOrResolved(path: string): string {
  const absolute = resolve(path);
  let existing = absolute;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const real = existsSync(existing) ? realpathSync(existing) : existing;
  return join(real, absolute.slice(existing.length));
}

/** The same file by device and inode (a hard link or a symbolic link counts), or by path. */
function sameFile(a: string, b: string): boolean {
  if (existsSync(a) && existsSync(b)) {
    const first = statSync(a);
    const second = statSync(b);
    return first.dev === second.dev && first.ino === second.ino;
  }
  return realOrResolved(a) === realOrResolved(b);
}

/** `path` lies inside the directory `directory` (compared by real paths). */
function isInside(path: string, directory: string): boolean {
  const parent = realOrResolved(directory);
  const child = realOrResolved(path);
  return child.startsWith(parent.endsWith(sep) ? parent : `${parent}${sep}`);
}

/**
 * Refuses an output that is one of the inputs (same device and inode, so a hard link of an input is
 * refused too), or an output file that exists inside an input directory (a checkpoint's weights, a
 * run's trajectories): an output never overwrites an input.
 */
function refuseInputs(
  option: string,
  path: string,
  inputs: readonly NamedPath[],
  kind: "file" | "directory",
): void {
  for (const input of inputs) {
    if (input.path === undefined || input.path === "") continue;
    if (sameFile(path, input.path))
      throw new UsageError(
        `${option} ${path} is also the input ${input.option} ${input.path}${resolve(path) === resolve(input.path) ? "" : " (the same file by device and inode)"}: it would overwrite its own input`,
      );
    const inputIsDirectory = existsSync(input.path) && statSync(input.path).isDirectory();
    if (kind === "file" && inputIsDirectory && existsSync(path) && isInside(path, input.path))
      throw new UsageError(
        `${option} ${path} is a file of the input ${input.option} ${input.path}: it would overwrite part of its own input; write it elsewhere`,
      );
  }
}

/** Creates and removes a probe directory, so an unwritable directory fails now, not after the work. */
async function probeWritable(option: string, directory: string): Promise<void> {
  try {
    const probe = await mkdtemp(join(directory, ".hs-write-probe-"));
    await rm(probe, { recursive: true, force: true });
  } catch (error) {
    throw new UsageError(
      `${option}: cannot write in ${directory} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
}

/**
 * Creates a directory and its missing parents one level at a time (a recursive `mkdir` of Node 20
 * never settles under /proc, where every level fails with ENOENT).
 */
async function createDirectories(directory: string): Promise<void> {
  const missing: string[] = [];
  let existing = directory;
  while (!existsSync(existing)) {
    missing.unshift(existing);
    existing = dirname(existing);
  }
  for (const path of missing) await mkdir(path);
}

/**
 * Checks an output file before any work: not empty, not a directory, not one of the inputs, in a
 * directory that exists (or is created, with `createParent`) and can be written.
 */
export async function checkOutputFile(
  option: string,
  path: string | undefined,
  inputs: readonly NamedPath[] = [],
  options: { createParent?: boolean } = {},
): Promise<string> {
  if (path === undefined || path.trim() === "")
    throw new UsageError(`${option} expects a file path, got an empty one`);
  const file = resolve(path);
  refuseInputs(option, file, inputs, "file");
  if (existsSync(file) && statSync(file).isDirectory())
    throw new UsageError(`${option} ${path} is a directory; expected a file path`);
  const parent = dirname(file);
  if (!existsSync(parent)) {
    if (options.createParent !== true)
      throw new UsageError(`${option} ${path}: the directory ${parent} does not exist`);
    try {
      await createDirectories(parent);
    } catch (error) {
      throw new UsageError(
        `${option} ${path}: cannot create ${parent} (${(error as NodeJS.ErrnoException).code})`,
      );
    }
  }
  if (!statSync(parent).isDirectory())
    throw new UsageError(`${option} ${path}: ${parent} is not a directory`);
  await probeWritable(option, parent);
  return file;
}

/**
 * Checks an output directory before any work: not empty, not one of the inputs, not a file, and its
 * nearest existing ancestor writable. The directory itself is not created here.
 */
export async function checkOutputDirectory(
  option: string,
  path: string | undefined,
  inputs: readonly NamedPath[] = [],
): Promise<string> {
  if (path === undefined || path.trim() === "")
    throw new UsageError(`${option} expects a directory path, got an empty one`);
  const directory = resolve(path);
  refuseInputs(option, directory, inputs, "directory");
  let existing = directory;
  while (!existsSync(existing)) existing = dirname(existing);
  if (!statSync(existing).isDirectory())
    throw new UsageError(
      `${option} ${path}: ${existing} is ${existing === directory ? "a file" : "a file, not a directory"}; expected a directory`,
    );
  await probeWritable(option, existing);
  return directory;
}

/** Every path must be an existing directory (e.g. the experiments of `hs report`). */
export function requireDirectories(what: string, paths: readonly string[]): string[] {
  return paths.map((path) => {
    const directory = resolve(path);
    if (!existsSync(directory)) throw new UsageError(`${what} ${path} does not exist`);
    if (!statSync(directory).isDirectory()) throw new UsageError(`${what} ${path} is not a directory`);
    return directory;
  });
}

/**
 * Runs `body` with `directory` owned by this process: the run lock held (see run-lock.ts) and the
 * directory claimed with the fingerprint (new, or a resume with unchanged inputs). The lock is
 * released however `body` ends; a new run whose `body` fails before its first checkpoint leaves the
 * directory empty again.
 */
export async function withOwnedRunDirectory<T>(
  options: {
    directory: string;
    command: string;
    description: string;
    fingerprint: () => Promise<RunFingerprint>;
    warn: (message: string) => void;
  },
  body: () => Promise<T>,
): Promise<T> {
  const lock = await acquireRunLock(options.directory, options.description, options.warn);
  try {
    const claim = await claimRunDirectory(options.directory, options.command, await options.fingerprint());
    try {
      return await body();
    } catch (error) {
      if (claim === "new") await releaseFailedStart(options.directory);
      throw error;
    }
  } finally {
    await lock.release();
  }
}

/**
 * A run that failed before its first checkpoint claims nothing: the files it wrote in the directory
 * it found empty (its fingerprint, config, first metrics) are removed, so the corrected command
 * starts afresh instead of being refused as a resume with changed inputs. Nothing is lost: without
 * a checkpoint a resume would start from step 0 anyway.
 */
async function releaseFailedStart(directory: string): Promise<void> {
  if (existsSync(join(directory, "checkpoints", "latest.json"))) return;
  for (const name of await readdir(directory))
    if (name !== lockFileName) await rm(join(directory, name), { recursive: true, force: true });
}
