/**
 * What SWE-bench reads from a test patch (SWE-bench/SWE-bench@v4.1.0 swebench/harness/test_spec/python.py
 * `get_test_directives`, swebench/harness/utils.py `get_modified_files`, constants `NON_TEST_EXTS`).
 */

/** Extensions that are not test files (note SWE-bench's "csv" without a dot). */
export const nonTestExtensions = [
  ".json",
  ".png",
  "csv",
  ".txt",
  ".md",
  ".jpg",
  ".jpeg",
  ".pkl",
  ".yml",
  ".yaml",
  ".toml",
] as const;

/** Every `b/` path of the patch's `diff --git` lines, without non-test files. */
export function testDirectives(testPatch: string): string[] {
  const paths = [...testPatch.matchAll(/diff --git a\/.* b\/(.*)/g)].map((match) => match[1] as string);
  return paths.filter((path) => !nonTestExtensions.some((extension) => path.endsWith(extension)));
}

/**
 * Files the patch modifies or deletes (source not /dev/null), as `git checkout <base> <files>` resets
 * them: files the patch creates are not among them.
 */
export function modifiedFiles(patch: string): string[] {
  const files: string[] = [];
  for (const match of patch.matchAll(/^--- (\S+)[^\n]*\n\+\+\+ /gm)) {
    const source = match[1] as string;
    if (source !== "/dev/null" && source.startsWith("a/")) files.push(source.slice(2));
  }
  return files;
}

/**
 * The `-k` expression of SWE-Gym's mypy test command: the `[case NAME]` headers of the test patch
 * joined with " or " (SWE-Gym/SWE-Bench-Fork swebench/harness/test_spec.py `make_test_command`).
 */
export function mypyCaseExpression(testPatch: string): string {
  return [...testPatch.matchAll(/\[case ([^\]]+)\]/g)].map((match) => match[1] as string).join(" or ");
}
