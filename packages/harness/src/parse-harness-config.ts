import { type HarnessConfig, harnessConfigSchema, InvalidInputError } from "@hs/spec";
import type { z } from "zod";

/** Formats the first zod issue as a field path and message. */
export function describeZodIssue(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0];
  if (issue === undefined) return { field: "", message: "invalid value" };
  return { field: issue.path.map(String).join("."), message: issue.message };
}

/**
 * Validates a harness config. Throws an `InvalidInputError` naming the field path (and the file, when
 * given) of the first problem.
 */
export function parseHarnessConfig(value: unknown, source: { file?: string } = {}): HarnessConfig {
  const result = harnessConfigSchema.safeParse(value);
  if (result.success) return result.data;
  const { field, message } = describeZodIssue(result.error);
  const more = result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more problems)` : "";
  throw new InvalidInputError(`invalid harness config: ${message}${more}`, { ...source, field });
}

/** A harness that exposes native tool calls with neutral defaults; override sections as needed. */
export function createHarnessConfig(
  overrides: Partial<HarnessConfig> & Pick<HarnessConfig, "id">,
): HarnessConfig {
  return parseHarnessConfig({
    schemaVersion: 1,
    description: "",
    prompt: {
      system: "You are a helpful agent.\n{tools}",
      taskTemplate: "{instruction}",
      hints: [],
      hintPlacement: "task",
      examples: [],
    },
    actionFormat: { kind: "tool-calls" },
    context: {
      keepLastTurns: null,
      truncateObservationChars: null,
      truncationMarker: "[TRUNCATED]",
      pinTask: true,
    },
    errorRecovery: {
      toolErrorTemplate: "Error: {error}",
      malformedActionTemplate:
        "Your reply could not be parsed: {reason}. Reply with exactly one valid action.",
      maxReprompts: 0,
      toolErrorSuffix: "",
    },
    budget: { maxSteps: 15, maxOutputChars: null },
    tools: { expose: null, macros: [] },
    verification: {
      enabled: false,
      prompt: "Check your answer {answer} before submitting it again.",
      maxChecks: 0,
    },
    ...overrides,
  });
}
