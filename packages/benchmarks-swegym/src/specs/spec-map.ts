import { InvalidInputError } from "@hs/spec";
import { z } from "zod";
import { logParsers } from "../grading/log-parsers.js";
import type { WorkspaceSetup } from "../runtime/workspace-templates.js";

/**
 * One repository-version spec, under SWE-bench's key names (`MAP_REPO_VERSION_TO_SPECS` in
 * SWE-bench/SWE-bench@v4.1.0 swebench/harness/constants). `test_cmd` is required; `log_parser` is this
 * package's addition (a name of `logParsers`), defaulting to SWE-Gym's choice for the repository.
 */
export const repoSpecSchema = z.looseObject({
  /** The test command; the test files the test patch touches are appended. */
  test_cmd: z.string().min(1),
  /**
   * Builds the repository: run once per base commit in the local runtime's template (so the agent's and
   * the grader's workspaces start built, as in SWE-bench's images) and again in the eval script before
   * the tests (as SWE-bench runs it there).
   */
  install: z.string().optional(),
  /**
   * This package's addition: a directory of prebuilt files (compiled extensions, generated sources)
   * copied over the checkout before `install`; `{commit}` becomes the base commit and `{repo}`
   * `owner__name`, since build artifacts are per commit while specs are per version.
   */
  artifacts: z.string().min(1).optional(),
  /**
   * Python version of the environment (`major.minor`): the docker images carry it; locally it is
   * checked against the `--python` interpreter, and a mismatch is reported naming both versions.
   */
  python: z.string().optional(),
  /** Commands run at the start of the eval script. */
  eval_commands: z.array(z.string()).optional(),
  /** Which log parser reads this repository's test output. */
  log_parser: z
    .string()
    .refine((name) => Object.hasOwn(logParsers, name), {
      message: `one of ${Object.keys(logParsers).join(", ")}`,
    })
    .optional(),
});
/** One repository-version spec. */
export type RepoSpec = z.infer<typeof repoSpecSchema>;

/**
 * `{"<owner>/<name>": {"<version>": spec}}`. A version key `*` (this package's addition) applies to
 * every version the repository does not list.
 */
export const specMapSchema = z.record(z.string(), z.record(z.string(), repoSpecSchema));
/** A spec map. */
export type SpecMap = z.infer<typeof specMapSchema>;

const pytestRa = (test_cmd: string, python?: string): RepoSpec =>
  python === undefined ? { test_cmd } : { test_cmd, python };

/**
 * SWE-Gym's test commands for its eleven repositories (SWE-Gym/SWE-Bench-Fork
 * swebench/harness/constants.py: TEST_MOTO, TEST_CONAN, TEST_DASK, TEST_MONAI, TEST_DVC, TEST_BOKEH,
 * TEST_MODIN, TEST_PYDANTIC, TEST_PANDAS, TEST_HYDRA and SPECS_MYPY). The fork lists every version
 * with the same command, so one `*` entry stands for them; mypy 1.7-1.11 run without `-n0`. Install
 * commands are left out: they build the fork's conda images, which the docker runtime uses ready-made.
 */
export const sweGymSpecs: SpecMap = {
  "getmoto/moto": { "*": pytestRa("pytest -n0 -rA", "3.12") },
  "conan-io/conan": { "*": pytestRa("pytest -n0 -rA", "3.10") },
  "dask/dask": { "*": pytestRa("pytest -n0 -rA  --color=no") },
  "Project-MONAI/MONAI": { "*": pytestRa("pytest -rA ", "3.8") },
  "iterative/dvc": { "*": pytestRa("pytest -rA", "3.10") },
  "bokeh/bokeh": { "*": pytestRa("pytest -rA -n0", "3.10") },
  "modin-project/modin": { "*": pytestRa("pytest -n0 -rA", "3.9") },
  "pydantic/pydantic": {
    "*": {
      ...pytestRa("pytest -rA --tb=short -vv -o console_output_style=classic --no-header", "3.8"),
      log_parser: "pytest_pydantic",
    },
  },
  "pandas-dev/pandas": { "*": pytestRa("pytest -rA --tb=long") },
  "facebookresearch/hydra": { "*": pytestRa("pytest -rA --tb=long", "3.8") },
  "python/mypy": {
    "*": pytestRa("pytest -n0 -rA -k", "3.11"),
    ...Object.fromEntries(
      ["1.7", "1.8", "1.9", "1.10", "1.11"].map((v) => [v, pytestRa("pytest -rA -k", "3.12")]),
    ),
  },
};

/** What the local runtime builds into an instance's checkout from its spec. */
export function workspaceSetup(spec: RepoSpec): WorkspaceSetup | undefined {
  if (spec.install === undefined && spec.artifacts === undefined) return undefined;
  return {
    ...(spec.install === undefined ? {} : { install: spec.install }),
    ...(spec.artifacts === undefined ? {} : { artifacts: spec.artifacts }),
  };
}

/** Merges maps: later maps add repositories and override versions of earlier ones. */
export function mergeSpecMaps(...maps: readonly SpecMap[]): SpecMap {
  const merged: SpecMap = {};
  for (const map of maps) {
    for (const [repo, versions] of Object.entries(map)) {
      const key = Object.keys(merged).find((known) => known.toLowerCase() === repo.toLowerCase()) ?? repo;
      merged[key] = { ...(merged[key] ?? {}), ...versions };
    }
  }
  return merged;
}

/** Parses a `--specs FILE` text; errors name the file and the field (`repo.version.test_cmd`). */
export function parseSpecMap(text: string, file: string): SpecMap {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(`not JSON: ${(error as Error).message}`, { file });
  }
  const parsed = specMapSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join(".") ?? "";
    const message =
      issue?.code === "invalid_type" ? `expected ${issue.expected}` : (issue?.message ?? "invalid");
    throw new InvalidInputError(`${message} (a spec needs "test_cmd")`, { file, field });
  }
  return parsed.data;
}

/** The spec of a repository version: the exact version, else `*`; repository names compare case-insensitively. */
export function lookupSpec(map: SpecMap, repo: string, version: string): RepoSpec | undefined {
  const key = Object.keys(map).find((known) => known.toLowerCase() === repo.toLowerCase());
  if (key === undefined) return undefined;
  const versions = map[key] ?? {};
  return versions[version] ?? versions["*"];
}
