import { type FailureConventions, failureConventionsSchema, InvalidInputError } from "@hs/spec";

/** Validates conventions; throws `InvalidInputError` naming the field. */
export function parseFailureConventions(value: unknown): FailureConventions {
  const result = failureConventionsSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new InvalidInputError(`invalid failure conventions: ${issue?.message ?? "invalid value"}`, {
    field: issue?.path.map(String).join(".") ?? "",
  });
}
