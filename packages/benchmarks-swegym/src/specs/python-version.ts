import { spawnSync } from "node:child_process";

/** `major.minor.micro` of an interpreter (a path, or a name PATH resolves), or null when it does not run. */
export function interpreterVersion(python: string): string | null {
  const probe = spawnSync(python, ["-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"], {
    encoding: "utf8",
    timeout: 20_000,
  });
  if (probe.status !== 0) return null;
  return probe.stdout.trim() || null;
}

/** Whether an interpreter version (`3.11.7`) is the spec's (`3.11`, or `3` or `3.11.7`): compared on the spec's own parts. */
export function versionMatches(specVersion: string, actual: string): boolean {
  const wanted = specVersion.trim().split(".");
  const have = actual.split(".");
  return wanted.every((part, index) => have[index] === part);
}

/** The warning for a spec whose `python` is not the interpreter's, naming both (null when they agree). */
export function pythonMismatch(
  repo: string,
  version: string,
  specVersion: string | undefined,
  python: { path: string; version: string | null },
): string | null {
  if (specVersion === undefined) return null;
  if (python.version === null) {
    return `swegym: the spec of ${repo} ${version} asks for Python ${specVersion}, and ${python.path} does not run`;
  }
  if (versionMatches(specVersion, python.version)) return null;
  return `swegym: the spec of ${repo} ${version} asks for Python ${specVersion}, but the tests run on ${python.path}, Python ${python.version} (give the right one with --python PATH)`;
}
