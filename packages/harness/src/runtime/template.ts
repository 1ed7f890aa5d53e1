import { InvalidInputError } from "@hs/spec";

const templateField = /\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)*)\}/g;

/**
 * Replaces `{name}` template fields with values. A `{metadata.KEY}` whose key is missing is an error
 * (the harness promises the policy a field the task does not have); other unknown template fields are
 * left as written, so prompts may contain literal braces.
 */
export function fillTemplate(
  template: string,
  values: Readonly<Record<string, string>>,
  field = "template",
): string {
  return template.replace(templateField, (whole, name: string) => {
    const value = values[name];
    if (value !== undefined) return value;
    if (name.startsWith("metadata.")) {
      throw new InvalidInputError(
        `template field ${whole} names task metadata that this task does not have`,
        {
          field,
        },
      );
    }
    return whole;
  });
}

/** Flattens task metadata into `metadata.KEY` template values (strings as-is, others as JSON). */
export function metadataValues(metadata: Readonly<Record<string, unknown>>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) {
    values[`metadata.${key}`] = typeof value === "string" ? value : JSON.stringify(value);
  }
  return values;
}
