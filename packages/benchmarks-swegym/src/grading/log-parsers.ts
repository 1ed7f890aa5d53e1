/**
 * SWE-bench's pytest log parsers, rewritten from their rules (SWE-bench/SWE-bench@v4.1.0
 * swebench/harness/log_parsers/python.py, and SWE-Gym/SWE-Bench-Fork swebench/harness/log_parsers.py for
 * pydantic). Each maps a test id to its status word.
 */

/** SWE-bench's `TestStatus` values, in its order (constants/__init__.py). */
export const testStatuses = ["FAILED", "PASSED", "SKIPPED", "ERROR", "XFAIL"] as const;
/** A test status word. */
export type TestStatus = (typeof testStatuses)[number];
/** Test id -> status, as a parser reads it from a log. */
export type StatusMap = Record<string, string>;
/** A log parser. */
export type LogParser = (log: string) => StatusMap;

function startsWithStatus(line: string): boolean {
  return testStatuses.some((status) => line.startsWith(status));
}

function endsWithStatus(line: string): boolean {
  return testStatuses.some((status) => line.endsWith(status));
}

/** Python's `str.split()` with no argument: split on runs of whitespace, no empty parts. */
function splitWhitespace(line: string): string[] {
  return line.split(/\s+/).filter((part) => part !== "");
}

/** For a FAILED line, every " - " becomes " " (Python `str.replace`), so the message never joins the id. */
function normaliseFailed(line: string): string {
  return line.startsWith("FAILED") ? line.split(" - ").join(" ") : line;
}

/** `parse_log_pytest`: `-rA` summary lines that begin with a status word; id = second token. */
export function parseLogPytest(log: string): StatusMap {
  const map: StatusMap = {};
  for (const raw of log.split("\n")) {
    if (!startsWithStatus(raw)) continue;
    const parts = splitWhitespace(normaliseFailed(raw));
    if (parts.length <= 1) continue;
    map[parts[1] as string] = parts[0] as string;
  }
  return map;
}

const optionPattern = /(.*?)\[(.*)\]/;

/**
 * `parse_log_pytest_options`: as `parse_log_pytest`, but a parameter that is an absolute path
 * (`[/tmp/x/y.txt]`, not `//` and without `*`) is shortened to its last component (`[/y.txt]`).
 */
export function parseLogPytestOptions(log: string): StatusMap {
  const map: StatusMap = {};
  for (const raw of log.split("\n")) {
    if (!startsWithStatus(raw)) continue;
    const parts = splitWhitespace(normaliseFailed(raw));
    if (parts.length <= 1) continue;
    const id = parts[1] as string;
    const option = optionPattern.exec(id);
    let name = id;
    if (option !== null) {
      const main = option[1] as string;
      let parameter = option[2] as string;
      if (parameter.startsWith("/") && !parameter.startsWith("//") && !parameter.includes("*")) {
        parameter = `/${parameter.split("/").at(-1) ?? ""}`;
      }
      name = `${main}[${parameter}]`;
    }
    map[name] = parts[0] as string;
  }
  return map;
}

/** Characters 1..31, which the v2 parsers delete (Python `str.maketrans("", "", escapes)`). */
const controlCharacters = new RegExp(`[${String.fromCharCode(1)}-${String.fromCharCode(31)}]`, "g");
/** What is left of an ANSI colour code after the escape is deleted: `[31m`, `[0m`. */
const colourCode = /\[(\d+)m/g;

function cleanV2Line(raw: string): string {
  return raw.replace(colourCode, "").replace(controlCharacters, "");
}

function readV2Line(line: string, map: StatusMap): void {
  if (startsWithStatus(line)) {
    const parts = splitWhitespace(normaliseFailed(line));
    if (parts.length >= 2) map[parts[1] as string] = parts[0] as string;
  } else if (endsWithStatus(line)) {
    const parts = splitWhitespace(line);
    if (parts.length >= 2) map[parts[0] as string] = parts[1] as string;
  }
}

/**
 * `parse_log_pytest_v2`: colour codes and control characters removed first; also reads older
 * pytest's `path::test STATUS` lines (a line ending with a status word: id = first token).
 */
export function parseLogPytestV2(log: string): StatusMap {
  const map: StatusMap = {};
  for (const raw of log.split("\n")) readV2Line(cleanV2Line(raw), map);
  return map;
}

/**
 * SWE-Gym's pydantic parser (`parse_log_pytest_pydantic` in SWE-Gym/SWE-Bench-Fork): v2, and also
 * `FAILED [ 42%]`-style progress after FAILED is reduced to `FAILED`, so the verbose `-vv` line
 * `tests/x.py::test FAILED [ 42%]` reads as `name STATUS`. (The fork indexes the second token without a
 * length check, which would raise on a bare status line; here such a line is skipped.)
 */
export function parseLogPytestPydantic(log: string): StatusMap {
  const map: StatusMap = {};
  for (const raw of log.split("\n")) readV2Line(cleanV2Line(raw).replace(/FAILED\s*\[.*?\]/g, "FAILED"), map);
  return map;
}

/** Parsers by name, as a spec file may name them (`"log_parser": "pytest_v2"`). */
export const logParsers: Readonly<Record<string, LogParser>> = {
  pytest: parseLogPytest,
  pytest_options: parseLogPytestOptions,
  pytest_v2: parseLogPytestV2,
  pytest_pydantic: parseLogPytestPydantic,
};

/**
 * The parser of each SWE-Gym repository (SWE-Gym/SWE-Bench-Fork swebench/harness/log_parsers.py,
 * `MAP_REPO_TO_PARSER`, keys lower-cased there too): `parse_log_pytest` for all but pydantic.
 */
export const sweGymRepoParsers: Readonly<Record<string, keyof typeof logParsers>> = {
  "getmoto/moto": "pytest",
  "conan-io/conan": "pytest",
  "modin-project/modin": "pytest",
  "dask/dask": "pytest",
  "pandas-dev/pandas": "pytest",
  "facebookresearch/hydra": "pytest",
  "pydantic/pydantic": "pytest_pydantic",
  "python/mypy": "pytest",
  "iterative/dvc": "pytest",
  "project-monai/monai": "pytest",
  "bokeh/bokeh": "pytest",
};
