import { z } from "zod";

/**
 * A test list as SWE-bench stores it (a JSON-encoded string, `'["a", "b"]'`) or as SWE-Gym stores it
 * (a list). SWE-bench's harness accepts both (`_from_json_or_obj` in
 * SWE-bench/SWE-bench@v4.1.0 swebench/harness/test_spec/test_spec.py); so does this schema.
 */
export const testListSchema = z.union([z.array(z.string()), z.string()]).transform((value, context) => {
  if (Array.isArray(value)) return value;
  let decoded: unknown;
  try {
    decoded = JSON.parse(value);
  } catch {
    context.addIssue({ code: "custom", message: "a JSON-encoded list of test ids or a list of strings" });
    return z.NEVER;
  }
  const parsed = z.array(z.string()).safeParse(decoded);
  if (!parsed.success) {
    context.addIssue({ code: "custom", message: "a JSON-encoded list of strings (test ids)" });
    return z.NEVER;
  }
  return parsed.data;
});

/**
 * One SWE-bench / SWE-Gym instance (the fields of SWE-bench@v4.1.0
 * swebench/harness/constants/__init__.py `SWEbenchInstance`). Fields beyond these (SWE-bench
 * Verified's `difficulty`, a dataset's own extras) are kept as they are.
 */
export const sweInstanceSchema = z.looseObject({
  /** `<owner>__<name>-<number>`, unique in a dataset. */
  instance_id: z.string().min(1),
  /** `<owner>/<name>` on GitHub; resolved through the local mirror as `<owner>__<name>`. */
  repo: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, "owner/name"),
  /** The commit the episode starts from (the bug is present). */
  base_commit: z.string().regex(/^[0-9a-f]{7,40}$/, "a git commit hash"),
  /** The gold patch (source only). Grader's, never the policy's. */
  patch: z.string(),
  /** The patch adding the tests that expose the bug. Grader's, never the policy's. */
  test_patch: z.string(),
  /** The issue text: what the policy is shown. */
  problem_statement: z.string(),
  /** Comments on the issue before the fix; shown only by presets that show hints. */
  hints_text: z.string().default(""),
  /** When the fixing pull request was created. */
  created_at: z.string().default(""),
  /** Version key of the spec map. */
  version: z.union([z.string(), z.number()]).transform(String),
  /** SWE-bench's environment commit; absent in SWE-Gym. */
  environment_setup_commit: z.string().optional(),
  /** Tests that fail before the gold patch and pass after. */
  FAIL_TO_PASS: testListSchema,
  /** Tests that pass before and after. */
  PASS_TO_PASS: testListSchema,
});

/** One SWE-bench / SWE-Gym instance, test lists decoded. */
export type SweInstance = z.infer<typeof sweInstanceSchema>;

/** `owner/name` -> the mirror directory name `owner__name` (SWE-bench's instance-id prefix). */
export function mirrorName(repo: string): string {
  return repo.replace("/", "__");
}
